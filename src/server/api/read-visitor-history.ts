import 'server-only'
import { sql } from 'drizzle-orm'
import type { VisitorHistory } from '@/contracts/server-api'
import { type Database, selectRows } from '../db/client'
import { HttpError } from '../http/errors'
import type { ApiCaller } from './authenticate-api-key'
import { decodeCursor, eventColumns, toPage } from './event-rows'

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
  const rows = await selectRows(
    db,
    eventColumns,
    (select) => sql`select ${select} from events
      where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey}
        ${cursor ? sql`and (created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})` : sql``}
      order by created_at desc, request_id desc limit ${limit + 1}`,
    { prepared: true },
  )
  // First and last seen on this site: the visitor row's own dates tell of other sites' visits.
  const [visitor] = await selectRows(
    db,
    { firstSeenAt: sql<string>`min(created_at)`, lastSeenAt: sql<string>`max(created_at)` },
    (select) => sql`select ${select} from events
      where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey} having count(*) > 0`,
    { prepared: true },
  )
  if (!visitor) throw new HttpError('not_found', 'No visitor has this ID.')
  return { visitorId, ...visitor, ...toPage(rows, limit) }
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
  const [found] = await selectRows(
    db,
    {
      known: sql<boolean>`exists(select 1 from visitors where id = ${visitorId})`,
      onSite: sql<boolean>`exists(select 1 from events where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey})`,
    },
    (select) => sql`select ${select}`,
    { prepared: true },
  )
  if (!found?.known) throw new HttpError('not_found', 'No visitor has this ID.')
  if (!found.onSite)
    throw new HttpError('forbidden', 'This visitor was never seen on the site of this API key.')
}
