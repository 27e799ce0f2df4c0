import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { ComponentResult, IdentifyRequest } from '@/contracts/identify'
import { asComponents, type Device, realisticDevice } from '../../../tests/support/realistic-devices'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { type Engine, openTestDatabase } from '../../../tests/support/test-database'
import { type DatabaseHandle, openDatabase, queryRows } from '../db/client'
import { identifyVisitor } from './identify-visitor'

const postgresUrl = inject('postgresUrl')
const engines: Engine[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']

function payload(components: Record<string, ComponentResult>, extra: Partial<IdentifyRequest> = {}) {
  return { components, ...extra }
}

describe.each(engines)('identifyVisitor on %s', (engine) => {
  let handle: DatabaseHandle & { url?: string }
  const context = { ip: '203.0.113.7', userAgent: 'test' }

  beforeAll(async () => {
    handle = await openTestDatabase(engine, postgresUrl)
    // A population the device must be told apart from.
    for (let seed = 1000; seed < 1040; seed++) {
      await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(seed)), context })
    }
  })
  afterAll(() => handle.close())

  /** Visitors counted in the platform statistics, and visitors stored: equal when the deltas are right. */
  async function platformStatistics() {
    const [row] = await queryRows<{ visitors: number }>(
      handle.db,
      sql`select sum(visitors)::int as visitors from component_stats where component = 'platform'`,
    )
    // Only visitors within their network's budget of new devices feed the statistics (SECURITY.md).
    const [count] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from visitors where counted`,
    )
    // Every visitor, counted or not, in the statistics of all visitors.
    const [all] = await queryRows<{ all: number; stored: number }>(
      handle.db,
      sql`select (select sum(all_visitors) from component_stats where component = 'platform')::int as all,
        (select count(*) from visitors)::int as stored`,
    )
    expect(all?.all).toBe(all?.stored)
    return { counted: row?.visitors, visitors: count?.n }
  }

  it('gives a new device a new visitor and stores the event', async () => {
    const result = await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(1)), context })
    expect(result.visitorFound).toBe(false)
    expect(result.visitorId).toMatch(/^[\w-]{20}$/)
    expect(result.confidence.score).toBeGreaterThan(0.5)
    const [event] = await queryRows<{ visitor_id: string; ip: string }>(
      handle.db,
      sql`select visitor_id, ip from events where request_id = ${result.requestId}`,
    )
    expect(event).toEqual({ visitor_id: result.visitorId, ip: '203.0.113.7' })
  })

  it('recognises the same device without any token (cookies cleared)', async () => {
    const first = await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(2)), context })
    const again = await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(2)), context })
    expect(again.visitorFound).toBe(true)
    expect(again.visitorId).toBe(first.visitorId)
    expect(again.firstSeenAt).toBe(first.firstSeenAt)
  })

  it("never moves a visitor's last visit back (a later write from a server whose clock runs ahead)", async () => {
    const first = await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(61)), context })
    const ahead = new Date(Date.now() + 3_600_000).toISOString()
    await handle.db.execute(sql`update visitors set last_seen_at = ${ahead} where id = ${first.visitorId}`)
    const again = await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(61)), context })
    expect(again.visitorId).toBe(first.visitorId)
    const [row] = await queryRows<{ last_seen_at: string }>(
      handle.db,
      sql`select last_seen_at from visitors where id = ${first.visitorId}`,
    )
    // Retention takes a visitor's events by its last visit: it must be the latest of them.
    expect(new Date(row?.last_seen_at ?? 0).toISOString()).toBe(ahead)
  })

  it('follows a browser update and a time-zone change without any token', async () => {
    const device = syntheticDevice(3)
    const first = await identifyVisitor({ db: handle.db, input: payload(device), context })
    const changes: Record<string, ComponentResult>[] = [
      { userAgent: { value: 'Mozilla/5.0 Chrome/199.0.0.0', duration: 1 } },
      { timezone: { value: 'Pacific/Auckland', duration: 1 } },
    ]
    let current = device
    for (const change of changes) {
      current = { ...current, ...change }
      const result = await identifyVisitor({ db: handle.db, input: payload(current), context })
      expect(result.visitorId).toBe(first.visitorId)
    }
  })

  it('follows a new font set with the stored token', async () => {
    const device = syntheticDevice(10)
    const first = await identifyVisitor({ db: handle.db, input: payload(device), context })
    const withFont = { ...device, fonts: { value: ['A font nobody else has'], duration: 1 } }
    const kept = await identifyVisitor({
      db: handle.db,
      input: payload(withFont, { storedToken: first.storedToken }),
      context,
    })
    expect(kept.visitorId).toBe(first.visitorId)
    expect(kept.confidence.score).toBeGreaterThan(0.9)
  })

  it('honours the signed token while the fingerprint stays consistent, and only then', async () => {
    const first = await identifyVisitor({ db: handle.db, input: payload(syntheticDevice(4)), context })
    const withToken = await identifyVisitor({
      db: handle.db,
      input: payload(syntheticDevice(4), { storedToken: first.storedToken }),
      context,
    })
    expect(withToken.visitorId).toBe(first.visitorId)

    // The token copied onto a completely different device does not carry the identity over.
    const otherDevice = await identifyVisitor({
      db: handle.db,
      input: payload(syntheticDevice(5), { storedToken: first.storedToken }),
      context,
    })
    expect(otherDevice.visitorId).not.toBe(first.visitorId)

    // A forged token is ignored.
    const forged = `v1.${first.visitorId}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`
    const forgedResult = await identifyVisitor({
      db: handle.db,
      input: payload(syntheticDevice(6), { storedToken: forged }),
      context,
    })
    expect(forgedResult.visitorId).not.toBe(first.visitorId)
  })

  it('keeps twins apart among machines that render alike, and follows a time-zone change', async () => {
    // Machines of a few kinds: rendering values are shared, as they are between identical machines.
    const population = Array.from({ length: 60 }, (_, seed) => realisticDevice(seed + 1))
    const firsts = []
    for (const device of population) {
      firsts.push(
        await identifyVisitor({
          db: handle.db,
          input: payload(asComponents(device)),
          context: { ip: null, userAgent: null },
        }),
      )
    }
    const [original] = population
    if (!original) throw new Error('no device')
    const twin = {
      ...original,
      reducedMotion: original.reducedMotion === 'reduce' ? 'no-preference' : 'reduce',
      contrast: 'more',
    }
    const twinResult = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(twin)),
      context: { ip: null, userAgent: null },
    })

    expect(firsts.map((result) => result.visitorId)).not.toContain(twinResult.visitorId)
    const travelled = { ...original, timezone: 'Asia/Dubai', timezoneOffset: -240 }
    const back = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(travelled)),
      context: { ip: null, userAgent: null },
    })
    expect(back.visitorId).toBe(firsts[0]?.visitorId)
    // The stored profile follows the device; going home again is still the same device.
    const home = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(original)),
      context: { ip: null, userAgent: null },
    })
    expect(home.visitorId).toBe(firsts[0]?.visitorId)
  })

  it('finds a device whose change made it look like many stored devices', async () => {
    // Other devices that had already removed the same font share the device's new font set and
    // canvas, and so more of its blocking keys than its own record does: its own record must
    // still be among the candidates, found by the keys few visitors share.
    const seed = Array.from({ length: 50 }, (_, at) => 700 + at).find(
      (at) => (realisticDevice(at).fonts as string[]).length >= 3,
    )
    if (seed === undefined) throw new Error('no realistic device with three fonts')
    const device = realisticDevice(seed)
    const fonts = (device.fonts as string[]).slice(1)
    const canvas = { ...(device.canvas as Record<string, string>), text: `removed|${fonts.join()}` }
    const removed = { ...device, fonts, canvas }
    const first = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(device)),
      context,
    })
    const others = new Set<string>()
    // Elsewhere, in another language, each set up otherwise in a setting one device almost never
    // changes: 24 distinct visitors, none of them the device.
    const locale = device.timezone === 'Asia/Dubai' ? 'pt-BR' : 'sv-SE'
    for (let at = 1; at <= 24; at++) {
      const other = {
        ...removed,
        timezone: device.timezone === 'Asia/Dubai' ? 'Europe/Stockholm' : 'Asia/Dubai',
        timezoneOffset: device.timezone === 'Asia/Dubai' ? -60 : -240,
        languages: [locale],
        intlLocale: { ...(device.intlLocale as Record<string, string>), locale },
        monochrome: at,
      }
      const stored = await identifyVisitor({
        db: handle.db,
        input: payload(asComponents(other)),
        context: { ip: `192.0.2.${at}`, userAgent: 'test' },
      })
      others.add(stored.visitorId)
    }
    expect(others.size).toBe(24)
    const again = await identifyVisitor({ db: handle.db, input: payload(asComponents(removed)), context })
    expect(again.visitorId).toBe(first.visitorId)
  })

  it('finds a device among more look-alikes than one blocking key reads', async () => {
    // 200 machines of the device's kind, set up alike (fonts, screen, colour scheme) but in another
    // language and time zone: every key of hardware, fonts and screen alone is shared by all of
    // them, more than a key reads. The device comes back from a trip: only a key that holds its
    // language (and not its time zone) tells it from them.
    const device: Device = { ...realisticDevice(900), monochrome: 900 }
    const first = await identifyVisitor({ db: handle.db, input: payload(asComponents(device)), context })
    const locale = (device.intlLocale as { locale: string }).locale === 'sv-SE' ? 'pt-BR' : 'sv-SE'
    for (let at = 1; at <= 200; at++) {
      const other = {
        ...device,
        timezone: 'Europe/Stockholm',
        timezoneOffset: -60,
        languages: [locale],
        intlLocale: { ...(device.intlLocale as Record<string, string>), locale },
        monochrome: at,
      }
      await identifyVisitor({
        db: handle.db,
        input: payload(asComponents(other)),
        context: { ip: `198.51.${Math.floor(at / 250)}.${at % 250}`, userAgent: 'test' },
      })
    }
    const travelled = { ...device, timezone: 'Pacific/Auckland', timezoneOffset: -780 }
    const again = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(travelled)),
      context: { ip: '203.0.113.99', userAgent: 'test' },
    })
    expect(again.visitorId).toBe(first.visitorId)
  })

  it('finds a device whose time zone and language changed together among look-alikes stored before it', async () => {
    // 200 machines of the device's kind stored first, set up alike (fonts, colour scheme, language,
    // time zone), each on a screen of its own: every key of hardware, colour scheme and fonts is
    // shared by all of them. The device comes back from a trip with the time zone and one more
    // language: only a key of the three other settings (colour scheme, fonts, screen) tells it apart.
    const device: Device = { ...realisticDevice(901), monochrome: 901 }
    const [width = 0, height = 0] = device.screen as number[]
    for (let at = 1; at <= 200; at++) {
      const other = {
        ...device,
        screen: [width + at, height],
        availableScreen: [width + at, height - 40, 0, 0],
        monochrome: at,
      }
      await identifyVisitor({
        db: handle.db,
        input: payload(asComponents(other)),
        context: { ip: `198.51.${Math.floor(at / 250)}.${at % 250}`, userAgent: 'test' },
      })
    }
    const first = await identifyVisitor({ db: handle.db, input: payload(asComponents(device)), context })
    const travelled = {
      ...device,
      timezone: 'Pacific/Auckland',
      timezoneOffset: -780,
      languages: [...(device.languages as string[]), 'mi'],
    }
    const again = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(travelled)),
      context: { ip: '203.0.113.98', userAgent: 'test' },
    })
    expect(again.visitorId).toBe(first.visitorId)
  })

  it('scores a device whose one surviving key is shared, among look-alikes that share more keys', async () => {
    // The device comes back with one more language and another display scale: of its settings keys,
    // only the one of its time zone, colour scheme and fonts still holds, shared by 8 neighbours of
    // its kind (its keys of hardware alone are shared by all of them). 20 machines of its kind hold
    // the comeback's new language list and scale (in another time zone, and with another
    // accessibility setting): they share four keys with the comeback, so every one of them ranks
    // ahead of the device. Scoring tells them apart at once; blocking must not leave the device out
    // for them.
    const device: Device = { ...realisticDevice(902), monochrome: 902 }
    const first = await identifyVisitor({ db: handle.db, input: payload(asComponents(device)), context })
    const ratio = device.devicePixelRatio === 2 ? 1.25 : 2
    const languages = [...(device.languages as string[]), 'mi']
    const [width = 0, height = 0] = device.screen as number[]
    const store = (other: Device, at: number) =>
      identifyVisitor({
        db: handle.db,
        input: payload(asComponents(other)),
        context: { ip: `198.18.${Math.floor(at / 250)}.${at % 250}`, userAgent: 'test' },
      })
    for (let at = 1; at <= 20; at++) {
      const locale = at % 2 === 0 ? 'sv-SE' : 'pt-BR'
      if (at <= 8)
        await store(
          {
            ...device,
            languages: [locale],
            intlLocale: { ...(device.intlLocale as Record<string, string>), locale },
            screen: [width + at, height],
            availableScreen: [width + at, height - 40, 0, 0],
            monochrome: at,
          },
          at,
        )
      await store(
        {
          ...device,
          languages,
          devicePixelRatio: ratio,
          timezone: 'Pacific/Auckland',
          timezoneOffset: -780,
          monochrome: 100 + at,
        },
        100 + at,
      )
    }
    const comeback = { ...device, languages, devicePixelRatio: ratio }
    const again = await identifyVisitor({
      db: handle.db,
      input: payload(asComponents(comeback)),
      context: { ip: '203.0.113.97', userAgent: 'test' },
    })
    expect(again.visitorId).toBe(first.visitorId)
  })

  it('ignores a randomised canvas when matching', async () => {
    const device = syntheticDevice(8)
    const first = await identifyVisitor({ db: handle.db, input: payload(device), context })
    const noisy = { ...device, canvas: { value: { randomized: true, text: 'noise-1' }, duration: 1 } }
    const again = await identifyVisitor({ db: handle.db, input: payload(noisy), context })
    expect(again.visitorId).toBe(first.visitorId)
  })

  it('counts each visitor once per component value', async () => {
    const device = syntheticDevice(9)
    await identifyVisitor({ db: handle.db, input: payload(device), context })
    await identifyVisitor({ db: handle.db, input: payload(device), context })
    const { counted, visitors } = await platformStatistics()
    expect(counted).toBe(visitors)
  })

  it('answers concurrent requests in shared batches, each exactly as if it came alone', async () => {
    const returning = [20, 21, 22, 23, 24].map(syntheticDevice)
    const firsts = await Promise.all(
      returning.map((device) => identifyVisitor({ db: handle.db, input: payload(device), context })),
    )
    let statements = 0
    const execute = handle.db.execute.bind(handle.db)
    const counting = ((query: Parameters<typeof execute>[0]) => {
      statements++
      return execute(query)
    }) as typeof execute
    handle.db.execute = counting
    try {
      // Each returning device twice (the second must see the first's visit) and five new ones.
      const requests = [...returning, ...returning, ...[30, 31, 32, 33, 34].map(syntheticDevice)]
      const results = await Promise.all(
        requests.map((device, index) =>
          identifyVisitor({ db: handle.db, input: payload(device, { linkedId: `batch-${index}` }), context }),
        ),
      )
      expect(statements).toBeLessThan(requests.length)
      expect(results.slice(0, 10).map((result) => result.visitorId)).toEqual([
        ...firsts.map((result) => result.visitorId),
        ...firsts.map((result) => result.visitorId),
      ])
      expect(results.slice(10).every((result) => !result.visitorFound)).toBe(true)
      expect(new Set(results.map((result) => result.requestId)).size).toBe(requests.length)
      const rows = await queryRows<{ linked_id: string; visitor_id: string }>(
        handle.db,
        sql`select linked_id, visitor_id from events where linked_id like 'batch-%'`,
      )
      expect(rows).toHaveLength(requests.length)
      for (const [index, result] of results.entries()) {
        expect(rows.find((row) => row.linked_id === `batch-${index}`)?.visitor_id).toBe(result.visitorId)
      }
      const [visits] = await queryRows<{ visits: number }>(
        handle.db,
        sql`select visits from visitors where id = ${firsts[0]?.visitorId ?? ''}`,
      )
      expect(visits?.visits).toBe(3)
    } finally {
      handle.db.execute = execute
    }
    const { counted, visitors } = await platformStatistics()
    expect(counted).toBe(visitors)
  })

  it('stores one device that arrives twice at once as one visitor', async () => {
    const device = syntheticDevice(40)
    const [first, second] = await Promise.all([
      identifyVisitor({ db: handle.db, input: payload(device), context }),
      identifyVisitor({ db: handle.db, input: payload(device), context }),
    ])
    expect(second?.visitorId).toBe(first?.visitorId)
    expect([first?.visitorFound, second?.visitorFound].sort()).toEqual([false, true])
  })

  it('serves everyone else while one device floods the queue', async () => {
    const hot = syntheticDevice(41)
    const finished: string[] = []
    const flood = Array.from({ length: 80 }, () =>
      identifyVisitor({ db: handle.db, input: payload(hot), context }).then((result) => {
        finished.push('hot')
        return result.visitorId
      }),
    )
    const others = [50, 51, 52, 53, 54].map((seed) =>
      identifyVisitor({ db: handle.db, input: payload(syntheticDevice(seed)), context }).then(() =>
        finished.push('other'),
      ),
    )
    const [floodIds] = await Promise.all([Promise.all(flood), Promise.all(others)])
    // One flooding request is stored per batch; the others go in the first batches.
    expect(finished.lastIndexOf('other')).toBeLessThan(5 + 3)
    expect(new Set(floodIds).size).toBe(1)
    const [row] = await queryRows<{ visits: number }>(
      handle.db,
      sql`select visits from visitors where id = ${floodIds[0] ?? ''}`,
    )
    expect(row?.visits).toBe(80)
  })

  // Several app servers share a database only on PostgreSQL (one process owns a PGlite directory).
  if (engine === 'postgres')
    it('stores one new device that reaches two app servers at the same moment as one visitor', async () => {
      const other = await openDatabase({ url: handle.url ?? '' })
      try {
        for (let attempt = 0; attempt < 20; attempt++) {
          const device = syntheticDevice(90_000 + attempt)
          const [left, right] = await Promise.all([
            identifyVisitor({ db: handle.db, input: payload(device), context }),
            identifyVisitor({ db: other.db, input: payload(device), context }),
          ])
          expect(right.visitorId).toBe(left.visitorId)
        }
      } finally {
        await other.close()
      }
    })

  if (engine === 'postgres')
    it('keeps app servers that share one database from deadlocking each other', async () => {
      const url = handle.url ?? ''
      const servers = [handle, ...(await Promise.all([1, 2, 3].map(() => openDatabase({ url }))))]
      // A deadlock is retried request by request and might not reach the caller: count them
      // where the driver reports them (SQLSTATE 40P01).
      let deadlocks = 0
      for (const server of servers) {
        const execute = server.db.execute.bind(server.db)
        server.db.execute = ((query: Parameters<typeof execute>[0]) =>
          execute(query).catch((error: unknown) => {
            if (JSON.stringify(error, Object.getOwnPropertyNames(error)).includes('40P01')) deadlocks++
            throw error
          })) as typeof execute
      }
      try {
        // 64 clients, each sending new devices one after the other to one of four app servers:
        // concurrent batches add statistics rows the other servers' batches touch too.
        let next = 0
        const failures: unknown[] = []
        await Promise.all(
          Array.from({ length: 64 }, async (_, client) => {
            while (next < 1200) {
              const seed = 5000 + next++
              const db = (servers[client % servers.length] as DatabaseHandle).db
              await identifyVisitor({ db, input: payload(syntheticDevice(seed)), context }).catch((error) =>
                failures.push(error),
              )
            }
          }),
        )
        expect(failures).toEqual([])
        expect(deadlocks).toBe(0)
      } finally {
        for (const server of servers.slice(1)) await server.close()
      }
    }, 60_000)
})
