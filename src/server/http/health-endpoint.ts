import 'server-only'
import { checkDatabase } from '@/server/db/check-database'
import { handle, json, problem } from '@/server/http/respond'

/** Liveness and database readiness, for load balancers and the test harness. */
export const healthEndpoint = handle(async () => {
  try {
    return json(await checkDatabase())
  } catch {
    return problem('service_unavailable')
  }
})
