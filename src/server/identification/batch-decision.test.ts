import { describe, expect, it } from 'vitest'
import { modelPopulation } from '../../../tests/support/model-population'
import { asComponents, type Device, realisticDevice } from '../../../tests/support/realistic-devices'
import { lookUpAddress } from '../network/network-data'
import type { VelocityRow } from '../signals/velocity'
import { type BatchRead, type CandidateRow, decideBatch, type PreparedJob } from './batch-decision'
import { blockingKeys } from './blocking-keys'
import { profileComponents } from './fingerprint-profile'
import { placeOf } from './network-of'

// The decision is pure: what a batch read goes in, what the write must store comes out.

const now = new Date('2026-11-24T12:00:00Z')
const quiet: VelocityRow = {
  events5m: 0,
  events1h: 0,
  events24h: 0,
  ips5m: [],
  ips1h: [],
  ips24h: [],
  linked24h: [],
}

function job(values: Device, token?: { visitorId: string; browserId: string }): PreparedJob {
  const components = asComponents(values)
  const profile = profileComponents(components)
  return {
    input: { components },
    context: { ip: '198.51.100.7', userAgent: 'test' },
    profile,
    keys: blockingKeys(profile.digests),
    token,
    address: lookUpAddress('198.51.100.7'),
    place: placeOf('198.51.100.7'),
  }
}

function stored(id: string, values: Device, jobs: number[]): CandidateRow {
  const profile = profileComponents(asComponents(values))
  return {
    id,
    profile: profile.digests,
    parts: profile.parts,
    previous: {},
    volatility: {},
    workspace: 'default',
    counted: true,
    network: '192.0.2.0/24',
    firstSeenAt: '2026-11-20T12:00:00.000Z',
    visits: 3,
    lastSeenAt: '2026-11-23T12:00:00.000Z',
    velocity: quiet,
    jobs,
  }
}

/** The device after a trip: another time zone (and offset) than the one it had. */
const travelled = (values: Device): Device =>
  values.timezone === 'Asia/Tokyo'
    ? { ...values, timezone: 'Europe/Berlin', timezoneOffset: -60 }
    : { ...values, timezone: 'Asia/Tokyo', timezoneOffset: -540 }

function read(rows: CandidateRow[]): BatchRead {
  return {
    rows,
    browsers: new Map(),
    population: modelPopulation(),
    sharers: new Map(),
    placeSharers: { asn: new Map(), country: new Map() },
    newDevices: { network: new Map(), site: new Map() },
    activity: { address: new Map(), network: new Map() },
    budgets: { network: 10, site: 5_000 },
  }
}

describe('decideBatch', () => {
  it('holds back the second first visit of one device until the first is stored', () => {
    const device = realisticDevice(7)
    const decision = decideBatch([job(device), job(device)], read([]), now)
    expect(decision.written).toHaveLength(1)
    const first = decision.written[0]
    expect(first?.index).toBe(0)
    expect(first?.match.method).toBe('new')
    expect(decision.outcomes[1]).toEqual({ blockedBy: first?.event.visitorId })
  })

  it("counts a new device beyond its network's budget among all visitors only", () => {
    const device = realisticDevice(12)
    const full = read([])
    // The job's network (198.51.100.0/24) has had its hourly budget of new devices.
    full.newDevices.network.set('198.51.100.0/24', full.budgets.network)
    const beyond = decideBatch([job(device)], full, now)
    expect(beyond.written[0]?.counted).toBe(false)
    expect(beyond.changes.length).toBeGreaterThan(10)
    expect(beyond.changes.every(({ delta, all }) => delta === 0 && all === 1)).toBe(true)
    const within = decideBatch([job(device)], read([]), now)
    expect(within.written[0]?.counted).toBe(true)
    expect(within.changes.every(({ delta, all }) => delta === 1 && all === 1)).toBe(true)
    // Such a device back from a trip moves its values among all visitors only.
    const row = { ...stored('visitor-b', device, [0]), counted: false }
    const back = decideBatch([job(travelled(device))], read([row]), now)
    expect(back.written[0]?.event.visitorId).toBe('visitor-b')
    const zone = profileComponents(asComponents(device)).digests.timezone
    expect(back.changes).toContainEqual({ component: 'timezone', digest: zone, delta: 0, all: -1 })
    expect(back.changes.every(({ delta }) => delta === 0)).toBe(true)
  })

  it('finds a stored device, follows its changed value and moves the value counts with it', () => {
    const before = realisticDevice(11)
    const after = travelled(before)
    const decision = decideBatch([job(after)], read([stored('visitor-a', before, [0])]), now)
    const [event] = decision.written
    expect(event?.event.visitorId).toBe('visitor-a')
    expect(event?.event.visitorFound).toBe(true)
    const oldZone = profileComponents(asComponents(before)).digests.timezone
    expect(event?.previous.timezone).toEqual([oldZone])
    // The old time zone loses the visitor, the new one gains it; unchanged values do not move.
    expect(decision.changes).toContainEqual({ component: 'timezone', digest: oldZone, delta: -1, all: -1 })
    expect(decision.changes.filter(({ delta }) => delta > 0).map(({ component }) => component)).toEqual([
      'timezone',
      'timezoneOffset',
    ])
    // A browser without storage is a comeback: the device is seen changing its time zone once.
    expect(event?.comeback).toBe(true)
    // Its time zone moved to a value not seen before: an outing, as sure as the match that saw it.
    expect(event?.volatility).toEqual({
      comebacks: 1,
      changed: { time: 1 },
      novel: { time: 1 },
      recent: ['time'],
      recentWeight: event?.match.probability,
    })
  })

  it('counts an update as a novel change of the browser, never as an outing; a browser setting turned off as one', () => {
    const before: Device = { ...realisticDevice(17), pdfViewer: true }
    const comeback = (after: Device) =>
      decideBatch([job(after)], read([stored('visitor-u', before, [0])]), now).written[0]?.volatility
    const updated = comeback({
      ...before,
      userAgent: String(before.userAgent).replace(/Chrome\/\d+/, 'Chrome/199'),
    })
    expect(updated?.novel).toEqual({ browser: 1 })
    expect(updated?.recent).toBeUndefined()
    // The PDF viewer turned off may be turned on again: that is an outing.
    expect(comeback({ ...before, pdfViewer: false })?.recent).toEqual(['browser'])
  })

  it("records a token-holding browser's comeback after a while in the device's own volatility", () => {
    const before = realisticDevice(13)
    const after = travelled(before)
    const token = { visitorId: 'visitor-b', browserId: 'browser-b' }
    const row = { ...stored('visitor-b', before, [0]), volatility: { comebacks: 2, changed: { time: 1 } } }
    const decision = decideBatch([job(after, token)], read([row]), now)
    expect(decision.written[0]?.match.method).toBe('token')
    expect(decision.written[0]?.browserId).toBe('browser-b')
    expect(decision.written[0]?.volatility).toEqual({
      comebacks: 3,
      changed: { time: 2 },
      // Kept before novel changes were counted: its earlier change counts as one, as it weighed.
      novel: { time: 2 },
      recent: ['time'],
      recentWeight: decision.written[0]?.match.probability,
    })
  })

  it('records nothing from another page of the same sitting', () => {
    const device = realisticDevice(13)
    const token = { visitorId: 'visitor-b', browserId: 'browser-b' }
    const row = { ...stored('visitor-b', device, [0]), lastSeenAt: '2026-11-24T11:50:00.000Z' }
    const decision = decideBatch([job(device, token)], read([row]), now)
    expect(decision.written[0]?.match.method).toBe('token')
    expect(decision.written[0]?.comeback).toBe(false)
    expect(decision.written[0]?.volatility).toEqual({ comebacks: 0, changed: {} })
  })

  it('lists events by visitor ID, the order rows are locked in', () => {
    const jobs = [30, 31, 32, 33, 34].map((seed) => job(realisticDevice(seed)))
    const { written } = decideBatch(jobs, read([]), now)
    const ids = written.map(({ event }) => event.visitorId)
    expect(ids).toEqual([...ids].sort())
    expect(written.map(({ index }) => index).sort()).toEqual([0, 1, 2, 3, 4])
  })
})
