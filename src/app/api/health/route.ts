import { checkDatabase } from '@/server/db/check-database'
import { handle, json, problem } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** Liveness and database readiness, for load balancers and the test harness. */
export const GET = handle(async () => {
  try {
    return json(await checkDatabase())
  } catch {
    return problem('service_unavailable')
  }
})
