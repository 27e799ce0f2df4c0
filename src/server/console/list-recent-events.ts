import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import type { ConsoleEventFilters, EventFilter as SignalFilter } from '@/contracts/console'
import type { EventPage } from '@/contracts/server-api'
import { eventColumns, toPage } from '../api/event-rows'
import { type EventFilter, eventConditions } from '../api/search-events'
import { type Database, selectRows } from '../db/client'

/** The console's filters (parsed: ranges in order, the address normalised) as a search's. */
export type EventFilters = Omit<ConsoleEventFilters, 'signal'> & { signal?: SignalFilter }

const signalFilters: Record<SignalFilter, Omit<EventFilter, 'limit'>> = {
  all: {},
  bot: { bot: ['bad'] },
  new: { visitorFound: false },
  returning: { visitorFound: true },
  tampering: { signals: { tampering: true } },
  vpn: { signals: { vpn: true } },
  tor: { signals: { tor: true } },
  datacenter: { signals: { datacenter: true } },
  proxy: { signals: { proxy: true } },
  virtualMachine: { signals: { virtualMachine: true } },
  privateMode: { signals: { privateMode: true } },
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString()

/** The conditions the console's filters make, on `events` unaliased (the Server API's own, for one). */
export function consoleEventConditions(filters: EventFilters): SQL[] {
  const range = filters.ip?.includes('/')
  return eventConditions({
    ...signalFilters[filters.signal ?? 'all'],
    ...(filters.from && { since: `${filters.from}T00:00:00Z` }),
    ...(filters.to && { until: nextDay(filters.to) }),
    ...(filters.minScore !== undefined && { minSuspectScore: filters.minScore }),
    ...(filters.maxScore !== undefined && { maxSuspectScore: filters.maxScore }),
    ...(filters.linkedId && { linkedId: filters.linkedId }),
    ...(filters.ip && (range ? { ipRange: filters.ip } : { ip: filters.ip })),
  }).concat(filters.site ? [sql`site_key = ${filters.site}`] : [])
}

/** Events of every site (or the one chosen) matching the console's filters, newest first, a page at a time. */
export async function listRecentEvents({
  db,
  filters = {},
  cursor,
  limit = 15,
}: {
  db: Database
  filters?: EventFilters
  cursor?: { createdAt: string; requestId: string }
  limit?: number
}): Promise<EventPage> {
  const conditions = [
    sql`true`,
    ...consoleEventConditions(filters),
    ...(cursor
      ? [sql`(created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})`]
      : []),
  ]
  const rows = await selectRows(
    db,
    eventColumns,
    (select) => sql`select ${select} from events where ${sql.join(conditions, sql` and `)}
      order by created_at desc, request_id desc limit ${limit + 1}`,
    { prepared: true },
  )
  return toPage(rows, limit)
}
