import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

/**
 * What one browser produced, as one JSON document for the visitor to download: its own events
 * (found by its secret browser ID, never by a fingerprint), and its visitor's stored fingerprint
 * digests when this browser's visit is the one they follow.
 */
export async function exportVisitorData({
  db,
  visitorId,
  browserId,
}: {
  db: Database
  visitorId: string
  browserId: string
}) {
  const events = await queryRows<Record<string, unknown>>(
    db,
    sql`select request_id as "requestId", visitor_id as "visitorId", created_at as "createdAt", ip,
          user_agent as "userAgent", url, site_key as "siteKey", tag, linked_id as "linkedId", confidence, method,
          evidence, visitor_found as "visitorFound", signals, suspect_score as "suspectScore", components
        from events where browser_id = ${browserId} order by created_at desc`,
  )
  if (events.length === 0) return undefined
  const [visitor] = await queryRows<Record<string, unknown>>(
    db,
    sql`select id as "visitorId", first_seen_at as "firstSeenAt", last_seen_at as "lastSeenAt",
          case when (select browser_id from events where visitor_id = v.id order by created_at desc limit 1)
            = ${browserId} then profile end as "fingerprintDigests"
        from visitors v where id = ${visitorId}`,
  )
  return { exportedAt: new Date().toISOString(), visitor: visitor ?? { visitorId }, events }
}
