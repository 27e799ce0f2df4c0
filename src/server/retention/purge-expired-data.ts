import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

/**
 * Deletes identification events older than the retention period, and visitors not seen within it
 * (with their keys and their share of the value statistics), plus finished webhook deliveries and
 * used challenges past it. Returns what was removed.
 */
export async function purgeExpiredData({
  db,
  days,
  now = new Date(),
}: {
  db: Database
  days: number
  now?: Date
}) {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString()
  const [result] = await queryRows<{ events: number; visitors: number }>(
    db,
    sql`with old_events as (delete from events where created_at < ${cutoff} returning 1),
        old_visitors as (delete from visitors where last_seen_at < ${cutoff} returning profile),
        statistics as (
          update component_stats set visitors = component_stats.visitors - counted.n
          from (select p.component, p.digest, count(*) as n
                from old_visitors, jsonb_each_text(old_visitors.profile) as p(component, digest)
                group by p.component, p.digest) as counted
          where component_stats.component = counted.component and component_stats.digest = counted.digest),
        deliveries as (
          delete from webhook_deliveries where created_at < ${cutoff} and (delivered_at is not null or failed_at is not null)),
        challenges as (delete from used_challenges where used_at < ${cutoff})
        select (select count(*) from old_events)::int as events, (select count(*) from old_visitors)::int as visitors`,
  )
  return result ?? { events: 0, visitors: 0 }
}

/** Purges once at start, then every hour. */
export function runRetention(
  db: Database,
  days: number,
  onPurge: (removed: { events: number; visitors: number }) => void,
) {
  const purge = () => purgeExpiredData({ db, days }).then(onPurge, () => undefined)
  void purge()
  const timer = setInterval(purge, 3_600_000)
  timer.unref()
  return () => clearInterval(timer)
}
