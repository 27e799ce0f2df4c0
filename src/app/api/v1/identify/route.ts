import { identifyEndpoint } from '@/server/http/identify-endpoint'
import { methodNotAllowed, optionsFor } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const POST = identifyEndpoint

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
const otherMethod = methodNotAllowed('POST')
export const OPTIONS = optionsFor('POST')
export const GET = otherMethod
export const PUT = otherMethod
export const PATCH = otherMethod
export const DELETE = otherMethod
