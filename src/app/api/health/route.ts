import { sql } from 'drizzle-orm'
import { getDatabase } from '@/server/db/client'
import { handle, json, problem } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** Liveness and database readiness, for load balancers and the test harness. */
export const GET = handle(async () => {
  try {
    const { db, engine } = await getDatabase()
    await db.execute(sql`select 1`)
    return json({ status: 'ok', database: engine })
  } catch {
    return problem('service_unavailable')
  }
})
