import { identifyEndpoint } from '@/server/http/identify-endpoint'
import { otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const POST = identifyEndpoint

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST')
