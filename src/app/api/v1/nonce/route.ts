import { nonceEndpoint } from '@/server/http/nonce-endpoint'
import { methodNotAllowed, optionsFor } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const GET = nonceEndpoint

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
const otherMethod = methodNotAllowed('GET')
export const OPTIONS = optionsFor('GET')
export const POST = otherMethod
export const PUT = otherMethod
export const PATCH = otherMethod
export const DELETE = otherMethod
