import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import type { EventPage, EventSearchQuery } from '@/contracts/server-api'
import { type Database, queryRows } from '../db/client'
import type { ApiCaller } from './authenticate-api-key'
import { decodeCursor, type EventRow, eventColumns, toPage } from './event-rows'

/** Events of the caller's site matching every given filter, newest first. */
export async function searchEvents({
  db,
  caller,
  query,
}: {
  db: Database
  caller: ApiCaller
  query: EventSearchQuery
}): Promise<EventPage> {
  const filters: SQL[] = [sql`site_key = ${caller.sitePublicKey}`]
  if (query.visitorId) filters.push(sql`visitor_id = ${query.visitorId}`)
  if (query.linkedId) filters.push(sql`linked_id = ${query.linkedId}`)
  if (query.ip) filters.push(sql`ip = ${query.ip}`)
  if (query.bot) filters.push(sql`coalesce(signals->'bot'->>'result', 'notDetected') = ${query.bot}`)
  if (query.since) filters.push(sql`created_at >= ${query.since}::timestamptz`)
  if (query.until) filters.push(sql`created_at < ${query.until}::timestamptz`)
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor)
    filters.push(sql`(created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})`)
  }
  const rows = await queryRows<EventRow>(
    db,
    sql`select ${eventColumns} from events where ${sql.join(filters, sql` and `)}
        order by created_at desc, request_id desc limit ${query.limit + 1}`,
  )
  return toPage(rows, query.limit)
}
