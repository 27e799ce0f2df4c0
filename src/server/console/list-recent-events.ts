import 'server-only'
import { sql } from 'drizzle-orm'
import { type EventRow, eventColumns, toPage } from '../api/event-rows'
import { type Database, queryRows } from '../db/client'

const filters = {
  all: sql`true`,
  bot: sql`signals->'bot'->>'result' = 'bad'`,
  new: sql`not visitor_found`,
  returning: sql`visitor_found`,
}

export async function listRecentEvents({
  db,
  signal,
  cursor,
  limit = 15,
}: {
  db: Database
  signal: keyof typeof filters
  cursor?: { createdAt: string; requestId: string }
  limit?: number
}) {
  const rows = await queryRows<EventRow>(
    db,
    sql`select ${eventColumns} from events where ${filters[signal]}
          ${cursor ? sql`and (created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})` : sql``}
        order by created_at desc, request_id desc limit ${limit + 1}`,
  )
  return toPage(rows, limit)
}
