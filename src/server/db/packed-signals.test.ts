import { eq, sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import type { StoredSignals } from '@/contracts/signals'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { eventColumns } from '../api/event-rows'
import { identifyVisitor } from '../identification/identify-visitor'
import { queryRows } from './client'
import { ensureComingEventPartitions } from './event-partitions'
import { SIGNALS_DICTIONARY } from './packed-dictionaries'
import { packJson } from './packed-json'
import { ipDetailsOf, packSignals, unpackSignals } from './packed-signals'
import { events, ipDetails } from './schema'

const row = {
  ip: '2a02:8071:9a0:3f00:d8e1:4c2b:11f0:9a71',
  network: '2a02:8071:9a0:3f00::/56',
  asn: 3209,
  country: 'DE',
  details: null,
}
/** What the network data says of the address beyond the row's columns. */
const details = {
  countryName: 'Germany',
  region: 'Berlin',
  city: 'Berlin',
  latitude: 52.52,
  longitude: 13.405,
  timezone: 'Europe/Berlin',
  asnOrganization: 'Vodafone GmbH',
  asnType: 'isp',
} as const
const signals: StoredSignals = {
  bot: { result: 'notDetected', reasons: [] },
  ipVelocity: {
    result: {
      address: {
        events: { '5m': 1, '1h': 2, '24h': 5 },
        visitors: { '1h': 1, '24h': 2 },
        accounts: { '1h': 0, '24h': 0 },
      },
      network: { prefix: row.network, visitors: { '1h': 3, '24h': 9 }, accounts: { '1h': 0, '24h': 1 } },
    },
    reasons: [],
  },
  ipInfo: {
    result: {
      address: row.ip,
      version: 6,
      countryCode: 'DE',
      asn: 3209,
      ...details,
    },
    reasons: [],
  },
}

it('leaves out what the row holds, and puts the row’s values back where they were', () => {
  const packed = packSignals(signals, row)
  expect(packed[0]).toBe(0xf1)
  expect(unpackSignals(packed, row)).toEqual(signals)
  // An IPv6 address and its prefix are most of what the row saves the signals.
  expect(packJson(signals, SIGNALS_DICTIONARY).length - packed.length).toBeGreaterThan(25)
})

it('keeps what differs from the row, and packs signals that repeat nothing as before', () => {
  // The address's AS changed between the lookups (another database): the signals keep their own.
  const otherAsn = { ...row, asn: 64_500 }
  const packed = packSignals(signals, otherAsn)
  expect(unpackSignals(packed, otherAsn)).toEqual(signals)
  const nothing = { ip: null, network: null, asn: null, country: null, details: null }
  const plain = packSignals(signals, nothing)
  expect(plain[0]).toBe(SIGNALS_DICTIONARY.length)
  expect(unpackSignals(plain, nothing)).toEqual(signals)
  // Signals without an address (ipInfo null) repeat nothing either.
  const placeless = {
    ...signals,
    ipInfo: { result: null, reasons: [] },
    ipVelocity: { result: null, reasons: [] },
  }
  expect(unpackSignals(packSignals(placeless, row), row)).toEqual(placeless)
})

it('leaves out the network details its ip_details row holds, and reads them back from it', () => {
  const found = ipDetailsOf(signals)
  if (!found) throw new Error('The signals’ address has details.')
  expect(found.details).toEqual(details)
  expect(found.digest).toHaveLength(8)
  const withDetails = { ...row, details: found.details }
  const packed = packSignals(signals, withDetails)
  expect(unpackSignals(packed, withDetails)).toEqual(signals)
  // The city, coordinates and operator are most of what is left of an ordinary visit's signals.
  expect(packSignals(signals, row).length - packed.length).toBeGreaterThan(20)
  // The same details read from JSON that holds more (a stored row edited by hand) bring only their own fields.
  const padded = { ...row, details: { ...found.details, address: '192.0.2.1' } as typeof found.details }
  expect(unpackSignals(packed, padded)).toEqual(signals)
  // A row whose details are gone (a partial restore) reads as an address the data knew nothing more of.
  const gone = unpackSignals(packed, row).ipInfo?.result
  expect(gone).toMatchObject({ address: row.ip, asn: 3209, countryCode: 'DE', city: null, latitude: null })
  // Details that differ from the row's (the network data changed between lookups) stay in the signals.
  const moved = { ...row, details: { ...found.details, city: 'Potsdam' } }
  expect(unpackSignals(packSignals(signals, moved), moved)).toEqual(signals)
  // Same details, same digest; other details, another.
  expect(ipDetailsOf(structuredClone(signals))?.digest).toEqual(found.digest)
  const elsewhere = structuredClone(signals)
  if (elsewhere.ipInfo?.result) elsewhere.ipInfo.result.city = 'Potsdam'
  expect(ipDetailsOf(elsewhere)?.digest).not.toEqual(found.digest)
  // An address the data knows nothing more of has no details to store.
  const bare = structuredClone(signals)
  const info = bare.ipInfo?.result
  if (info) for (const key of Object.keys(found.details)) (info as Record<string, unknown>)[key] = null
  expect(ipDetailsOf(bare)).toBeNull()
})

it('refuses to read signals without their row, rather than answer the placeholders', () => {
  const decode = (bytes: Buffer) => events.signals.mapFromDriverValue(bytes)
  expect(() => decode(packSignals(signals, row))).toThrow(/eventSignals/)
  expect(
    decode(packSignals(signals, { ip: null, network: null, asn: null, country: null, details: null })),
  ).toEqual(signals)
})

describeOnEachEngine('signals as identify stores them', (suite) => {
  it('read back whole as the Server API reads them, with the row’s address, network, AS and country', async () => {
    const { db } = suite
    await ensureComingEventPartitions(db)
    const ip = '85.214.132.117'
    const answer = await identifyVisitor({
      db,
      input: { components: syntheticDevice(3) },
      context: { ip, userAgent: 'test' },
    })
    // Another device from the same range: its event keeps the same details' digest, stored once.
    const neighbour = await identifyVisitor({
      db,
      input: { components: syntheticDevice(4) },
      context: { ip: '85.214.132.118', userAgent: 'test' },
    })
    const [stored] = await queryRows<{
      first: number
      bytes: number
      asn: number | null
      details: number
      shared: boolean
    }>(
      db,
      sql`select get_byte(signals, 0) as first, octet_length(signals) as bytes, asn,
        (select count(*)::int from ip_details) as details,
        ip_details = (select ip_details from events where request_id = ${neighbour.requestId}) as shared
        from events where request_id = ${answer.requestId}`,
    )
    expect(stored?.first).toBe(0xf1)
    expect(answer.signals.ipInfo.result?.city).toEqual(expect.any(String))
    expect(stored?.details).toBe(1)
    expect(stored?.shared).toBe(true)
    const [details] = await db.select().from(ipDetails)
    expect(details?.details.city).toBe(answer.signals.ipInfo.result?.city)
    // As every Server API answer reads an event (event-rows.ts).
    const [event] = await db.select(eventColumns).from(events).where(eq(events.requestId, answer.requestId))
    if (!event) throw new Error('The identification stored no event.')
    expect(event.signals.ipInfo).toEqual(answer.signals.ipInfo)
    // Without the row's values and details, against the dictionary of such signals: well under the
    // whole signals packed against the first dictionary, as they were stored before.
    const whole = packJson(event.signals, SIGNALS_DICTIONARY.slice(0, 1)).length
    expect(stored?.bytes).toBeLessThan(whole * 0.6)
    expect(event.signals.ipInfo?.result?.address).toBe(ip)
    expect(event.signals.ipInfo?.result?.asn).toBe(stored?.asn)
    expect(event.signals.ipVelocity?.result?.network.prefix).toBe('85.214.132.0/24')
    // A statement that sets the signals alone (a test's, a tool's) writes them whole, readable as they are.
    await db.update(events).set({ signals }).where(eq(events.requestId, answer.requestId))
    const [again] = await db
      .select({ signals: events.signals })
      .from(events)
      .where(eq(events.requestId, answer.requestId))
    expect(again?.signals).toEqual(signals)
  })
})
