import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

/** Everything stored about a visitor, as one JSON document for the visitor to download. */
export async function exportVisitorData({ db, visitorId }: { db: Database; visitorId: string }) {
  const [visitor] = await queryRows<Record<string, unknown>>(
    db,
    sql`select id as "visitorId", first_seen_at as "firstSeenAt", last_seen_at as "lastSeenAt", visits,
          profile as "fingerprintDigests" from visitors where id = ${visitorId}`,
  )
  if (!visitor) return undefined
  const events = await queryRows<Record<string, unknown>>(
    db,
    sql`select request_id as "requestId", created_at as "createdAt", ip, user_agent as "userAgent", url,
          site_key as "siteKey", tag, linked_id as "linkedId", confidence, method, visitor_found as "visitorFound",
          signals, suspect_score as "suspectScore", components
        from events where visitor_id = ${visitorId} order by created_at desc`,
  )
  return { exportedAt: new Date().toISOString(), visitor, events }
}
