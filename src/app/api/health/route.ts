import { healthEndpoint } from '@/server/http/health-endpoint'

export const dynamic = 'force-dynamic'

export const GET = healthEndpoint
