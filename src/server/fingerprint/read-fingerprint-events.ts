import 'server-only'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { FingerprintEvent, FingerprintEventSearch } from '@/contracts/fingerprint-v4'
import type { StoredEvent } from '@/contracts/server-api'
import type { ApiCaller } from '../api/authenticate-api-key'
import { readEvent } from '../api/read-event'
import { type EventFilter, searchEvents } from '../api/search-events'
import { type Database, selectRows, withGenericPlans } from '../db/client'
import { events } from '../db/schema'
import { type EventContext, toFingerprintEvent } from './to-fingerprint-event'

type Site = Pick<ApiCaller, 'sitePublicKey'>

/** GET /v4/events/{id}: the Server API's own read, in v4's shape. */
export async function readFingerprintEvent({
  db,
  caller,
  eventId,
}: {
  db: Database
  caller: Site
  eventId: string
}): Promise<FingerprintEvent> {
  const event = await readEvent({ db, caller, requestId: eventId })
  const [mapped] = await toFingerprintEvents(db, [event])
  if (!mapped) throw new Error('The event disappeared while it was read.')
  return mapped
}

/** GET /v4/events: the Server API's own search, in v4's shape. */
export async function searchFingerprintEvents({
  db,
  caller,
  filter,
}: {
  db: Database
  caller: Site
  filter: EventFilter
}): Promise<FingerprintEventSearch> {
  const page = await searchEvents({ db, caller, filter })
  return {
    events: await toFingerprintEvents(db, page.events),
    ...(page.nextCursor && { pagination_key: page.nextCursor }),
  }
}

/** Stored events with their context (one query for the whole page), in v4's shape. */
export async function toFingerprintEvents(db: Database, events: StoredEvent[]): Promise<FingerprintEvent[]> {
  const contexts = await readEventContexts(
    db,
    events.map((event) => event.requestId),
  )
  return events.map((event) => toFingerprintEvent(event, contexts.get(event.requestId)))
}

/**
 * What v4 tells beside the stored event: the suspect flag (the integrator's, else the analyst's
 * label of the visitor), and the visitor's first and previous
 * events on the event's own site (never another site's), as of the event, so an event reads the
 * same today and next month.
 */
export async function readEventContexts(
  db: Database,
  requestIds: string[],
): Promise<Map<string, EventContext>> {
  if (requestIds.length === 0) return new Map()
  const event = alias(events, 'e')
  const rows = await withGenericPlans(db, (tx) =>
    selectRows(
      tx,
      {
        requestId: event.requestId,
        suspect: event.suspect,
        visitorLabel: sql<
          'fraud' | 'good' | null
        >`(select l.label from visitor_labels l where l.visitor_id = e.visitor_id)`,
        // In time order with a limit, not min()/max(): PostgreSQL then reads the visitor's index in
        // each day's table in turn and stops at the first event on the site, however busy the visitor.
        firstSeenAt: sql<string | null>`(select x.created_at from events x
        where x.visitor_id = e.visitor_id and x.site_key = e.site_key and x.created_at <= e.created_at
        order by x.created_at limit 1)`,
        lastSeenAt: sql<string | null>`(select x.created_at from events x
        where x.visitor_id = e.visitor_id and x.site_key = e.site_key and x.created_at <= e.created_at
          and (x.created_at, x.request_id) < (e.created_at, e.request_id)
        order by x.created_at desc, x.request_id desc limit 1)`,
      },
      (select) =>
        sql`select ${select} from events e where e.request_id = any(${sql.param(requestIds)}::text[])`,
      { prepared: true },
    ),
  )
  return new Map(rows.map(({ requestId, ...context }) => [requestId, context]))
}
