import { createHash } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import { customType } from 'drizzle-orm/pg-core'
import type { StoredSignals } from '../../contracts/signals'
import { SIGNALS_DICTIONARY } from './packed-dictionaries'
import { packJson, unpackJson } from './packed-json'

// events.signals as the server writes it (issue 28): packed JSON (packed-json.ts), without what the
// row itself holds. The address, its network's prefix, its AS number and country code are columns
// of the event; the signals repeat them (in ipInfo and ipVelocity), about 30 bytes an event once
// packed. Each that equals its column is written as the dictionary's typical value, and a leading
// marker byte and a byte of flags say which: a reader puts the row's own value back
// (`eventSignals`). Signals that repeat none are packed JSON as before, and so are stored rows.
//
// What the network data says of the address beyond those columns (its city, coordinates, operator:
// `IpDetails`, about 40 bytes packed) is the same for every event from that part of the network: it
// is stored once in ip_details, under a digest of itself that the event keeps (8 bytes).

/** The columns of an event that its signals repeat, with its ip_details row's details. */
export interface SignalsRow {
  ip: string | null
  network: string | null
  asn: number | null
  country: string | null
  details: IpDetails | null
}

/** The first byte of signals without the row's own values: neither a dictionary's version nor JSON text's first byte. */
const ELIDED = 0xf1

type Info = NonNullable<NonNullable<StoredSignals['ipInfo']>['result']>
type Network = NonNullable<NonNullable<StoredSignals['ipVelocity']>['result']>['network']

/** The fields of ipInfo that the network data gives a whole range of addresses alike. */
const DETAILS = [
  'countryName',
  'region',
  'city',
  'latitude',
  'longitude',
  'timezone',
  'asnOrganization',
  'asnType',
] as const satisfies readonly (keyof Info)[]
export type IpDetails = Pick<Info, (typeof DETAILS)[number]>

/** The flag that says the signals' ipInfo details are the row's ip_details. */
const DETAILS_FLAG = 1 << 4

/**
 * The details the network data gave the signals' address, and their digest (the first 8 bytes of
 * SHA-256 of their JSON, in DETAILS' order): null where it gave none, or the signals have no address.
 */
export function ipDetailsOf(signals: StoredSignals): { digest: Buffer; details: IpDetails } | null {
  const info = signals.ipInfo?.result
  if (!info || DETAILS.every((key) => info[key] === null || info[key] === undefined)) return null
  const details = detailsIn(info)
  return { digest: createHash('sha256').update(JSON.stringify(details)).digest().subarray(0, 8), details }
}

const sameDetails = (info: Info | undefined, details: IpDetails | null) =>
  info !== undefined && details !== null && DETAILS.every((key) => (info[key] ?? null) === details[key])

/** Each repeated value: where it is in the signals, its column, what stands in its place (the dictionary's). */
const REPEATED = [
  { column: 'ip', place: 'info', key: 'address', stand: '0.0.0.0' },
  { column: 'country', place: 'info', key: 'countryCode', stand: 'US' },
  { column: 'asn', place: 'info', key: 'asn', stand: 0 },
  { column: 'network', place: 'network', key: 'prefix', stand: '0.0.0.0/24' },
] as const

/** Where in `signals` each repeated value sits (undefined: the signals have no such part). */
function holdersOf(signals: StoredSignals): (Record<string, unknown> | undefined)[] {
  const places: { info?: Info; network?: Network } = {
    info: signals.ipInfo?.result ?? undefined,
    network: signals.ipVelocity?.result?.network,
  }
  return REPEATED.map((repeated) => places[repeated.place] as Record<string, unknown> | undefined)
}

/** The signals as events.signals stores them beside `row`. */
export function packSignals(signals: StoredSignals, row: SignalsRow): Buffer {
  const holders = holdersOf(signals)
  let flags = 0
  REPEATED.forEach((repeated, bit) => {
    const value = row[repeated.column]
    if (value !== null && holders[bit]?.[repeated.key] === value) flags |= 1 << bit
  })
  if (sameDetails(signals.ipInfo?.result ?? undefined, row.details)) flags |= DETAILS_FLAG
  if (flags === 0) return packJson(signals, SIGNALS_DICTIONARY)
  const copy = structuredClone(signals)
  const copied = holdersOf(copy)
  REPEATED.forEach((repeated, bit) => {
    const holder = copied[bit]
    if (flags & (1 << bit) && holder) holder[repeated.key] = repeated.stand
  })
  const info = copy.ipInfo?.result
  if (flags & DETAILS_FLAG && info) for (const key of DETAILS) info[key] = null
  return Buffer.concat([Buffer.of(ELIDED, flags), packJson(copy, SIGNALS_DICTIONARY)])
}

/** The signals events.signals holds, with the row's own values back where they were left out. */
export function unpackSignals(stored: Uint8Array, row: SignalsRow): StoredSignals {
  if (stored[0] !== ELIDED) return unpackJson(stored, SIGNALS_DICTIONARY) as StoredSignals
  const flags = stored[1] ?? 0
  const signals = unpackJson(stored.subarray(2), SIGNALS_DICTIONARY) as StoredSignals
  const holders = holdersOf(signals)
  REPEATED.forEach((repeated, bit) => {
    const holder = holders[bit]
    if (flags & (1 << bit) && holder) holder[repeated.key] = row[repeated.column]
  })
  const info = signals.ipInfo?.result
  // Details whose row is gone (never deleted, but a restore may lack them) read as unknown.
  if (flags & DETAILS_FLAG && info && row.details) Object.assign(info, detailsIn(row.details))
  return signals
}

/** The details' own fields of `source` (ipInfo, or a stored row's JSON, not trusted to hold nothing else). */
function detailsIn(source: IpDetails): IpDetails {
  return Object.fromEntries(DETAILS.map((key) => [key, source[key] ?? null])) as IpDetails
}

/**
 * The events.signals column: written as plain packed JSON when a statement sets it alone (it cannot
 * see the row); read only through `eventSignals`, which brings the row's own values with it.
 */
export function packedSignals(name: string) {
  return customType<{ data: StoredSignals; driverData: Uint8Array }>({
    dataType: () => 'bytea',
    toDriver: (signals) => packJson(signals, SIGNALS_DICTIONARY),
    fromDriver: (stored) => {
      if (stored[0] === ELIDED)
        throw new Error('events.signals leaves out what its row holds: read it through eventSignals().')
      return unpackJson(stored, SIGNALS_DICTIONARY) as StoredSignals
    },
  })(name)
}

/**
 * An event's signals, for a select list: one value (the packed signals' length, the signals, then the
 * row's address, network, AS number, country and ip_details as a JSON array) that this decodes.
 * Selected as a field itself: wrapped in another `sql` it would lose its decoder and read bytes.
 */
export function eventSignals(alias = 'events'): SQL<StoredSignals> {
  const event = sql.identifier(alias)
  return sql<StoredSignals>`int4send(length(${event}.signals)) || ${event}.signals
    || convert_to(json_build_array(${event}.ip, ${event}.network, ${event}.asn, ${event}.country,
      tessera_ip_details(${event}.ip_details))::text, 'UTF8')`.mapWith((value: Uint8Array) => {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    const length = bytes.readInt32BE(0)
    const [ip, network, asn, country, details] = JSON.parse(bytes.subarray(4 + length).toString('utf8'))
    return unpackSignals(bytes.subarray(4, 4 + length), { ip, network, asn, country, details })
  })
}
