import 'server-only'
import { sql } from 'drizzle-orm'
import ipaddr from 'ipaddr.js'
import type { NetworkVisitors } from '@/contracts/console'
import { normaliseNetwork } from '@/contracts/network-range'
import { type Database, selectRows } from '../db/client'
import { HttpError } from '../http/errors'
import { networkOf } from '../identification/network-of'

/** How far back a network look-up reads, and how many visitors it lists (the most recent first). */
const LOOKUP_DAYS = 30
const MAX_VISITORS = 50
/** Events read per /24 (or per address), the latest first: bounds a look-up of a busy range. */
const EVENTS_PER_NETWORK = 200
/** The widest range a look-up takes: 256 of the /24s (IPv6: /56s) events are indexed by. */
const WIDEST_PREFIX = { ipv4: 16, ipv6: 48 } as const

/**
 * The visitors seen over the last 30 days from an address or a CIDR range, the most recent first,
 * with the addresses and linked IDs each used there, among the latest 200 events of the address or
 * of each /24 (IPv6: /56) of the range. Read through the events' indexed address and network
 * (network-of.ts), so a range is at most 256 networks; a wider one is refused.
 */
export async function listNetworkVisitors({
  db,
  query,
}: {
  db: Database
  query: string
}): Promise<NetworkVisitors> {
  const range = normaliseNetwork(query)
  if (!range) throw new HttpError('invalid_request', `"${query}" is not an address or a CIDR range.`)
  const networks = networksWithin(range)
  const since = sql`now() - make_interval(days => ${LOOKUP_DAYS})`
  // Each /24 gives its latest events only (at most 256 × EVENTS_PER_NETWORK rows are read); an
  // address, or a range narrower than the /24s, is then checked against the range itself.
  const [base = '', bits] = range.split('/')
  const narrower = bits === undefined ? null : Number(bits) > (base.includes(':') ? 56 : 24) ? range : null
  const recent =
    bits === undefined
      ? sql`select visitor_id, created_at, ip, linked_id from events
          where ip = ${range} and created_at > ${since} order by created_at desc limit ${EVENTS_PER_NETWORK}`
      : sql`select hit.* from unnest(${sql.param(networks)}::text[]) as wanted(network)
          cross join lateral (select visitor_id, created_at, ip, linked_id from events
            where events.network = wanted.network and created_at > ${since}
            order by created_at desc limit ${EVENTS_PER_NETWORK}) as hit
          ${narrower ? sql`where tessera_try_inet(hit.ip) <<= ${narrower}::inet` : sql``}`
  const rows = await selectRows(
    db,
    {
      visitorId: sql<string>`visitor_id`,
      events: sql<number>`count(*)::int`,
      lastSeenAt: sql<string>`max(created_at)`,
      ips: sql<string[]>`array_agg(distinct ip order by ip)`,
      linkedIds: sql<string[]>`coalesce(array_agg(distinct linked_id order by linked_id)
        filter (where linked_id is not null), '{}')`,
    },
    (select) => sql`select ${select} from (${recent}) as recent
      group by visitor_id order by max(created_at) desc limit ${MAX_VISITORS + 1}`,
    { prepared: true },
  )
  return {
    range,
    days: LOOKUP_DAYS,
    visitors: rows.slice(0, MAX_VISITORS),
    more: rows.length > MAX_VISITORS,
  }
}

/** The /24s (IPv6: /56s) that hold a normalised address or range; refused beyond WIDEST_PREFIX. */
export function networksWithin(range: string): string[] {
  const [base = '', bits] = range.split('/')
  const address = ipaddr.parse(base)
  const kind = address.kind()
  const unit = kind === 'ipv4' ? 24 : 56
  const prefix = bits === undefined ? (kind === 'ipv4' ? 32 : 128) : Number(bits)
  if (prefix >= unit) return [networkOf(base)]
  if (prefix < WIDEST_PREFIX[kind]) {
    throw new HttpError(
      'invalid_request',
      `Look up a /${WIDEST_PREFIX.ipv4} (IPv6: /${WIDEST_PREFIX.ipv6}) or a narrower range.`,
    )
  }
  const bytes = address.toByteArray()
  const varying = unit / 8 - 1
  return Array.from({ length: 2 ** (unit - prefix) }, (_, index) => {
    const network = [...bytes]
    network[varying] = (bytes[varying] ?? 0) | index
    return networkOf(ipaddr.fromByteArray(network).toString())
  })
}
