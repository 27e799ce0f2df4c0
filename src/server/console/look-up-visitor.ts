import 'server-only'
import { sql } from 'drizzle-orm'
import type { VisitorPanel } from '@/contracts/console'
import { type Database, queryRows } from '../db/client'
import type { SmartSignals } from '../signals/compute-signals'
import { explainSuspectScore } from '../signals/suspect-score'

/** Finds the visitor behind a visitor ID, request ID, account email, linked ID or IP address. */
export async function findVisitorId({
  db,
  query,
}: {
  db: Database
  query: string
}): Promise<string | undefined> {
  const [row] = await queryRows<{ visitor_id: string }>(
    db,
    sql`select visitor_id from (
          select id as visitor_id, 1 as rank, last_seen_at as at from visitors where id = ${query}
          union all select visitor_id, 2, created_at from events where request_id = ${query}
          union all (select visitor_id, 3, created_at from accounts
                     where lower(email) = lower(${query}) and visitor_id is not null limit 1)
          union all (select visitor_id, 4, created_at from events where linked_id = ${query} order by created_at desc limit 1)
          union all (select visitor_id, 5, created_at from events where ip = ${query} order by created_at desc limit 1)
        ) as found order by rank, at desc limit 1`,
  )
  return row?.visitor_id
}

/** Everything the console shows about one visitor. */
export async function readVisitorPanel({
  db,
  visitorId,
}: {
  db: Database
  visitorId: string
}): Promise<VisitorPanel | undefined> {
  const [visitor] = await queryRows<{
    first_seen_at: string | Date
    last_seen_at: string | Date
    visits: number
  }>(db, sql`select first_seen_at, last_seen_at, visits from visitors where id = ${visitorId}`)
  if (!visitor) return undefined
  const events = await queryRows<Omit<VisitorPanel['events'][number], 'scoreBreakdown'>>(
    db,
    sql`select request_id as "requestId", created_at as "createdAt", ip, url, confidence, method,
          suspect_score as "suspectScore", signals
        from events where visitor_id = ${visitorId} order by created_at desc limit 50`,
  )
  const ips = await queryRows<{ ip: string; events: number }>(
    db,
    sql`select ip, count(*)::int as events from events where visitor_id = ${visitorId} and ip is not null
        group by ip order by events desc limit 20`,
  )
  const linked = await queryRows<{ linked_id: string }>(
    db,
    sql`select distinct linked_id from events where visitor_id = ${visitorId} and linked_id is not null limit 20`,
  )
  const accounts = await queryRows<{ email: string; name: string; created_at: string | Date }>(
    db,
    sql`select email, name, created_at from accounts where visitor_id = ${visitorId} order by created_at desc limit 20`,
  )
  return {
    visitorId,
    firstSeenAt: new Date(visitor.first_seen_at).toISOString(),
    lastSeenAt: new Date(visitor.last_seen_at).toISOString(),
    visits: visitor.visits,
    ips,
    linkedIds: linked.map((row) => row.linked_id),
    accounts: accounts.map((row) => ({
      email: row.email,
      name: row.name,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    events: events.map((event) => ({
      ...event,
      createdAt: new Date(event.createdAt).toISOString(),
      scoreBreakdown: isSmartSignals(event.signals) ? explainSuspectScore(event.signals).contributions : [],
    })),
  }
}

function isSmartSignals(signals: unknown): signals is SmartSignals {
  return typeof signals === 'object' && signals !== null && 'bot' in signals && 'velocity' in signals
}
