import 'server-only'
import { sql } from 'drizzle-orm'
import { type DatabaseHandle, getDatabase } from './client'

/** Whether the database answers a query, and which engine it is: for load balancers' health checks. */
export async function checkDatabase(): Promise<{ status: 'ok'; database: DatabaseHandle['engine'] }> {
  const { db, engine } = await getDatabase()
  await db.execute(sql`select 1`)
  return { status: 'ok', database: engine }
}
