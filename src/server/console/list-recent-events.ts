import 'server-only'
import { sql } from 'drizzle-orm'
import type { EventPage } from '@/contracts/server-api'
import { eventColumns, toPage } from '../api/event-rows'
import { type Database, selectRows } from '../db/client'

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
}): Promise<EventPage> {
  const rows = await selectRows(
    db,
    eventColumns,
    (select) => sql`select ${select} from events where ${filters[signal]}
      ${cursor ? sql`and (created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})` : sql``}
      order by created_at desc, request_id desc limit ${limit + 1}`,
    { prepared: true },
  )
  return toPage(rows, limit)
}
