import { identifyRoute } from '@/server/identification/identify-route'

export const dynamic = 'force-dynamic'

/** The agent's call: identify this browser and store the event. */
export const POST = identifyRoute
