import { nonceEndpoint } from '@/server/http/nonce-endpoint'
import { otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const GET = nonceEndpoint

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
