import { nonceEndpoint } from '@/server/http/nonce-endpoint'

export const dynamic = 'force-dynamic'

export const GET = nonceEndpoint
