import { unknownEndpoint } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

// A path no route serves: the JSON error callers of the API expect, for every method.
export const GET = unknownEndpoint
export const POST = unknownEndpoint
export const PUT = unknownEndpoint
export const PATCH = unknownEndpoint
export const DELETE = unknownEndpoint
export const OPTIONS = unknownEndpoint
