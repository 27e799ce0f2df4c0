import 'server-only'
import { sql } from 'drizzle-orm'
import type { VisitorHistory } from '@/contracts/server-api'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'
import type { ApiCaller } from './authenticate-api-key'
import { decodeCursor, type EventRow, eventColumns, toPage } from './event-rows'

/** A visitor's events on the caller's site, newest first, one page at a time. */
export async function readVisitorHistory({
  db,
  caller,
  visitorId,
  limit,
  before,
}: {
  db: Database
  caller: ApiCaller
  visitorId: string
  limit: number
  before?: string
}): Promise<VisitorHistory> {
  await assertVisitorOnSite({ db, caller, visitorId })
  const cursor = before ? decodeCursor(before) : undefined
  const rows = await queryRows<EventRow>(
    db,
    sql`select ${eventColumns} from events
        where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey}
          ${cursor ? sql`and (created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})` : sql``}
        order by created_at desc, request_id desc limit ${limit + 1}`,
  )
  // First and last seen on this site: the visitor row's own dates tell of other sites' visits.
  const [visitor] = await queryRows<{ first_seen_at: string | Date; last_seen_at: string | Date }>(
    db,
    sql`select min(created_at) as first_seen_at, max(created_at) as last_seen_at from events
        where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey} having count(*) > 0`,
  )
  if (!visitor) throw new HttpError('not_found', 'No visitor has this ID.')
  return {
    visitorId,
    firstSeenAt: new Date(visitor.first_seen_at).toISOString(),
    lastSeenAt: new Date(visitor.last_seen_at).toISOString(),
    ...toPage(rows, limit),
  }
}

/** 404 for an unknown visitor, 403 for a visitor never seen on the caller's site. */
export async function assertVisitorOnSite({
  db,
  caller,
  visitorId,
}: {
  db: Database
  caller: ApiCaller
  visitorId: string
}) {
  const [found] = await queryRows<{ known: boolean; on_site: boolean }>(
    db,
    sql`select exists(select 1 from visitors where id = ${visitorId}) as known,
               exists(select 1 from events where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey}) as on_site`,
  )
  if (!found?.known) throw new HttpError('not_found', 'No visitor has this ID.')
  if (!found.on_site)
    throw new HttpError('forbidden', 'This visitor was never seen on the site of this API key.')
}
