import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SmartSignals } from '@/contracts/signals'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { type Engine, openTestDatabase } from '../../../tests/support/test-database'
import { type DatabaseHandle, queryRows } from '../db/client'
import { ensureEventPartitions } from '../db/event-partitions'
import { eventSignals } from '../db/packed-signals'
import { events } from '../db/schema'
import { identifyVisitor } from '../identification/identify-visitor'
import { placeOf } from '../identification/network-of'
import { dailyVisitors, readBatchContext } from '../identification/population'
import {
  type AddressActivity,
  accountDigest,
  addToActivity,
  computeIpVelocity,
  IP_VELOCITY_LIMITS,
} from './ip-velocity'
import { SUSPECT_WEIGHTS } from './suspect-score'

const activity = (visitors: string[], linkedIds: string[] = []): AddressActivity => ({
  events5m: visitors.length,
  events1h: visitors.length,
  events24h: visitors.length,
  visitors1h: visitors,
  visitors24h: visitors,
  accounts1h: linkedIds.map(accountDigest),
  accounts24h: linkedIds.map(accountDigest),
})

describe('computeIpVelocity', () => {
  it('counts the current visitor and account once, whether or not they were seen there', () => {
    const seen = computeIpVelocity(
      '198.51.100.7',
      { address: activity(['a', 'b'], ['x']) },
      {
        visitorId: 'a',
        linkedId: 'x',
      },
    )
    expect(seen.result?.address.visitors).toEqual({ '1h': 2, '24h': 2 })
    expect(seen.result?.address.accounts).toEqual({ '1h': 1, '24h': 1 })
    expect(seen.result?.address.events).toEqual({ '5m': 3, '1h': 3, '24h': 3 })
    const unseen = computeIpVelocity(
      '198.51.100.7',
      { address: activity(['a', 'b'], ['x']) },
      {
        visitorId: 'c',
        linkedId: 'y',
      },
    )
    expect(unseen.result?.address.visitors['24h']).toBe(3)
    expect(unseen.result?.address.accounts['24h']).toBe(2)
    expect(unseen.result?.network).toEqual({
      prefix: '198.51.100.0/24',
      visitors: { '1h': 1, '24h': 1 },
      accounts: { '1h': 1, '24h': 1 },
    })
    expect(unseen.reasons).toEqual([])
  })

  it('gives its reasons above its limits, and they count in the suspect score', () => {
    const crowd = Array.from({ length: IP_VELOCITY_LIMITS.visitorsPerAddress1h }, (_, n) => `v${n}`)
    const accounts = Array.from({ length: IP_VELOCITY_LIMITS.accountsPerAddress24h }, (_, n) => `a${n}`)
    const busy = computeIpVelocity(
      '2001:db8:1:2::9',
      { address: activity(crowd, accounts) },
      {
        visitorId: 'new',
        linkedId: 'another',
      },
    )
    expect(busy.result?.network.prefix).toBe('2001:db8:1::/56')
    expect(busy.reasons).toEqual([
      `${IP_VELOCITY_LIMITS.visitorsPerAddress1h + 1} different visitors from this address in an hour.`,
      `${IP_VELOCITY_LIMITS.accountsPerAddress24h + 1} different accounts (linked IDs) from this address in 24 hours.`,
    ])
    const signals = { ipVelocity: busy } as unknown as SmartSignals
    const rows = SUSPECT_WEIGHTS.filter((row) => row.signal === 'ipVelocity' && row.applies(signals))
    expect(rows.map((row) => [row.signal, row.points])).toEqual([
      ['ipVelocity', 3],
      ['ipVelocity', 2],
    ])
    // At the limit, not above it: nothing.
    const atLimit = computeIpVelocity(
      '203.0.113.1',
      { address: activity(crowd.slice(1)) },
      { visitorId: 'v0' },
    )
    expect(atLimit.reasons).toEqual([])
  })

  it('says nothing without an address', () => {
    expect(computeIpVelocity(null, {}, { visitorId: 'a' })).toEqual({ result: null, reasons: [] })
  })

  it('adds an event to what was read, each visitor and account once', () => {
    const once = addToActivity(undefined, { visitorId: 'a', linkedId: 'x' })
    const twice = addToActivity(once, { visitorId: 'a' })
    expect(twice).toEqual({ ...activity(['a'], ['x']), events5m: 2, events1h: 2, events24h: 2 })
  })
})

describe('the visitors of an operator or a country over a day', () => {
  const now = Date.parse('2026-11-26T12:00:00Z')
  it('are the sampled count when the sample covers the day, and scaled to the day when it covers less', () => {
    expect(dailyVisitors({ n: 40, first: 120, second: now - 20 * 3_600_000 }, now)).toBe(40)
    // 200 events (a full sample) within the last hour: 150 visitors an hour, 3 600 a day.
    expect(dailyVisitors({ n: 150, first: 200, second: now - 3_600_000 }, now)).toBe(3_600)
    // A full sample within seconds is scaled as a minute's.
    expect(dailyVisitors({ n: 10, first: 200, second: now - 1_000 }, now)).toBe(14_400)
  })

  it('have no operator for a private-use AS number, which the AS data gives some ranges', () => {
    expect(placeOf('103.138.210.1').asn).toBeNull()
    expect(placeOf('85.214.132.117').asn).toBeGreaterThan(0)
  })
})

const postgresUrl = inject('postgresUrl')
const engines: Engine[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']

describe.each(engines)('ipVelocity from stored events on %s', (engine) => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openTestDatabase(engine, postgresUrl)
  })
  afterAll(() => handle.close())

  const identify = (seed: number, ip: string, linkedId?: string) =>
    identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(seed), ...(linkedId && { linkedId }) },
      context: { ip, userAgent: 'test' },
    })
  type Result = { address: { visitors: object; accounts: object; events: object }; network: object }
  /** The stored event's ipVelocity: the browser's own answer does not carry it. */
  const ipVelocity = async (answer: { requestId: string; signals: Record<string, unknown> }) => {
    expect(answer.signals).not.toHaveProperty('ipVelocity')
    const [row] = await handle.db
      .select({ signals: eventSignals() })
      .from(events)
      .where(eq(events.requestId, answer.requestId))
    return row?.signals.ipVelocity?.result as Result
  }

  it('counts the visitors and accounts of an address and of its /24, and no one else’s', async () => {
    await identify(1, '198.51.100.10', 'alice')
    await identify(1, '198.51.100.10', 'alice')
    await identify(2, '198.51.100.10', 'bob')
    await identify(3, '198.51.100.20')
    await identify(4, '192.0.2.10', 'carol')
    const answer = await identify(5, '198.51.100.10', 'dave')
    expect((await ipVelocity(answer)).address).toEqual({
      events: { '5m': 4, '1h': 4, '24h': 4 },
      visitors: { '1h': 3, '24h': 3 },
      accounts: { '1h': 3, '24h': 3 },
    })
    expect((await ipVelocity(answer)).network).toEqual({
      prefix: '198.51.100.0/24',
      visitors: { '1h': 4, '24h': 4 },
      accounts: { '1h': 3, '24h': 3 },
    })
    const [stored] = await queryRows<{ network: string }>(
      handle.db,
      sql`select network from events where request_id = ${answer.requestId}`,
    )
    expect(stored?.network).toBe('198.51.100.0/24')
  })

  it('sees the earlier requests of its own batch', async () => {
    const answers = await Promise.all(
      [10, 11, 12, 13].map((seed) => identify(seed, '2001:db8:77::1', `batch-${seed}`)),
    )
    const results = await Promise.all(answers.map(ipVelocity))
    const counts = results.map((result) => (result.address.visitors as { '1h': number })['1h'])
    expect(counts.sort()).toEqual([1, 2, 3, 4])
  })

  it("stores each event's operator and country, and counts the visitors of each over a day", async () => {
    const strato = placeOf('85.214.132.117')
    expect(strato.asn).toBeGreaterThan(0)
    expect(strato.country).toBe('DE')
    await identify(30, '85.214.132.117')
    await identify(31, '85.214.133.9')
    await identify(32, '3.5.140.2')
    const rows = await queryRows<{ ip: string; asn: number | null; country: string | null }>(
      handle.db,
      sql`select ip, asn, country from events where ip in ('85.214.132.117', '85.214.133.9', '3.5.140.2') order by ip`,
    )
    expect(rows).toEqual([
      { ip: '3.5.140.2', ...placeOf('3.5.140.2') },
      { ip: '85.214.132.117', ...strato },
      { ip: '85.214.133.9', ...strato },
    ])
    const context = await readBatchContext(handle.db, [], [], handle.db, Date.now(), {
      networks: [],
      sites: [],
      budgets: { network: 10, site: 10 },
      places: [strato],
    })
    expect(context.placeSharers.asn.get(strato.asn ?? 0)).toBe(2)
    expect(context.placeSharers.country.get('DE')).toBe(2)
  })

  it('forgets events older than a day', async () => {
    await identify(20, '203.0.113.50', 'old-account')
    // On PostgreSQL the day it moves to needs its table (two days back in the first hour of a UTC day).
    await ensureEventPartitions(handle.db, new Date(Date.now() - 2 * 86_400_000), new Date())
    await handle.db.execute(
      sql`update events set created_at = now() - interval '25 hours' where ip = '203.0.113.50'`,
    )
    const answer = await identify(21, '203.0.113.50')
    expect((await ipVelocity(answer)).address.visitors).toEqual({ '1h': 1, '24h': 1 })
    expect((await ipVelocity(answer)).address.accounts).toEqual({ '1h': 0, '24h': 0 })
  })
})
