import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import type { EventPage } from '@/contracts/server-api'
import { type Database, selectRows } from '../db/client'
import { botIs, type FlagName, flagIs, vpnConfidenceIs } from '../db/schema'
import type { ApiCaller } from './authenticate-api-key'
import { decodeCursor, eventColumns, toPage } from './event-rows'

/** Flags of the stored smart signals a search can filter on (schema/event-flags.ts). */
export type FlagSignalName = Exclude<FlagName, 'ipBlocklist'>

/**
 * What a search can ask for, whichever face (`/api/v1`, `/v4`) it came through; every field is
 * optional but `limit`, and the given ones must all hold.
 */
export interface EventFilter {
  visitorId?: string
  linkedId?: string
  /** An exact address, as stored. */
  ip?: string
  /** A CIDR range (`10.0.0.0/24`), already validated by the caller's contract. */
  ipRange?: string
  url?: string
  /** Any of these bot results; an event without a bot signal counts as `notDetected`. */
  bot?: readonly ('notDetected' | 'good' | 'bad')[]
  /** At or after (ISO 8601). */
  since?: string
  /** Strictly before (ISO 8601). */
  until?: string
  /** At or before (ISO 8601). */
  through?: string
  /**
   * Only events whose suspect flag is this value: the integrator's, else the analyst's label of the
   * visitor (fraud is true, good false); events with neither are left out.
   */
  suspect?: boolean
  minSuspectScore?: number
  maxSuspectScore?: number
  /** Only returning visitors (true) or new ones (false). */
  visitorFound?: boolean
  signals?: Partial<Record<FlagSignalName, boolean>>
  /** The VPN signal's confidence (events stored before network signals have none, and never match). */
  vpnConfidence?: 'low' | 'medium' | 'high'
  /** The autonomous system the address belongs to. */
  asn?: number
  limit: number
  cursor?: string
  /** Oldest first instead of newest first; the cursor then continues forwards in time. */
  oldestFirst?: boolean
}

/** Events of the caller's site matching every given filter, newest first (or oldest first). */
export async function searchEvents({
  db,
  caller,
  filter,
}: {
  db: Database
  caller: Pick<ApiCaller, 'sitePublicKey'>
  filter: EventFilter
}): Promise<EventPage> {
  const filters: SQL[] = [sql`site_key = ${caller.sitePublicKey}`, ...eventConditions(filter)]
  if (filter.cursor) {
    const cursor = decodeCursor(filter.cursor)
    const position = sql`(created_at, request_id)`
    const after = sql`(${cursor.createdAt}::timestamptz, ${cursor.requestId})`
    filters.push(filter.oldestFirst ? sql`${position} > ${after}` : sql`${position} < ${after}`)
  }
  const order = filter.oldestFirst ? sql`created_at, request_id` : sql`created_at desc, request_id desc`
  const rows = await selectRows(
    db,
    eventColumns,
    (select) => sql`select ${select} from events where ${sql.join(filters, sql` and `)}
      order by ${order} limit ${filter.limit + 1}`,
    { prepared: true },
  )
  return toPage(rows, filter.limit)
}

/** The largest AS number events.asn can hold (a PostgreSQL integer). */
const MAX_ASN = 2_147_483_647

/** The SQL conditions of a filter's fields (all but paging and order), on `events` unaliased. */
export function eventConditions(filter: Omit<EventFilter, 'limit' | 'cursor' | 'oldestFirst'>): SQL[] {
  const filters: SQL[] = []
  if (filter.visitorId) filters.push(sql`visitor_id = ${filter.visitorId}`)
  if (filter.linkedId) filters.push(sql`linked_id = ${filter.linkedId}`)
  if (filter.ip) filters.push(sql`ip = ${filter.ip}`)
  // Stored addresses are whatever X-Forwarded-For said: tessera_try_inet reads a malformed one as NULL.
  if (filter.ipRange) filters.push(sql`tessera_try_inet(ip) <<= ${filter.ipRange}::inet`)
  if (filter.url) filters.push(sql`url = ${filter.url}`)
  // Bad bots alone, and a flag set, as the predicates of their partial indexes (schema/events.ts).
  if (filter.bot?.length) filters.push(botIs(filter.bot))
  if (filter.since) filters.push(sql`created_at >= ${filter.since}::timestamptz`)
  if (filter.until) filters.push(sql`created_at < ${filter.until}::timestamptz`)
  if (filter.through) filters.push(sql`created_at <= ${filter.through}::timestamptz`)
  // The integrator's own flag, else the analyst's label of the visitor (as /v4 answers `suspect`).
  if (filter.suspect !== undefined)
    filters.push(sql`coalesce(suspect, (select case l.label when 'fraud' then true when 'good' then false end
      from visitor_labels l where l.visitor_id = events.visitor_id)) = ${filter.suspect}`)
  if (filter.minSuspectScore !== undefined)
    filters.push(sql`suspect_score >= ${filter.minSuspectScore}::float8`)
  if (filter.maxSuspectScore !== undefined)
    filters.push(sql`suspect_score <= ${filter.maxSuspectScore}::float8`)
  if (filter.visitorFound !== undefined) filters.push(sql`visitor_found = ${filter.visitorFound}`)
  for (const [name, value] of Object.entries(filter.signals ?? {})) {
    // An event without this signal (stored before it existed) matches neither true nor false.
    if (value !== undefined) filters.push(flagIs(name as FlagSignalName, value))
  }
  if (filter.vpnConfidence) filters.push(vpnConfidenceIs(filter.vpnConfidence))
  // The event's operator (network-of.ts placeOf): private-use numbers, and any beyond what the column
  // holds, are no operator and match nothing.
  if (filter.asn !== undefined)
    filters.push(
      Number.isInteger(filter.asn) && filter.asn <= MAX_ASN ? sql`asn = ${filter.asn}` : sql`false`,
    )
  return filters
}
