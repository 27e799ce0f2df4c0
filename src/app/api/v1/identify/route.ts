import { identifyEndpoint } from '@/server/http/identify-endpoint'

export const dynamic = 'force-dynamic'

export const POST = identifyEndpoint
