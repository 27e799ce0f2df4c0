import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

/**
 * Deletes every stored trace of a visitor in one statement: the visitor, its events and blocking
 * keys (by cascade), and its contribution to the value statistics. Idempotent.
 */
export async function forgetVisitor({
  db,
  visitorId,
}: {
  db: Database
  visitorId: string
}): Promise<boolean> {
  const [result] = await queryRows<{ deleted: number }>(
    db,
    sql`with gone as (delete from visitors where id = ${visitorId} returning profile),
        statistics as (
          update component_stats set visitors = component_stats.visitors - 1
          from gone, jsonb_each_text(gone.profile) as p(component, digest)
          where component_stats.component = p.component and component_stats.digest = p.digest)
        select count(*)::int as deleted from gone`,
  )
  return (result?.deleted ?? 0) > 0
}
