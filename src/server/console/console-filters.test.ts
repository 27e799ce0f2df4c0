import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { ConsoleEventsQuery, ExportQuery } from '@/contracts/console'
import { changeEventSignals } from '../../../tests/support/event-signals'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { ensureEventPartitions } from '../db/event-partitions'
import { identifyVisitor } from '../identification/identify-visitor'
import { createSite } from '../sites/create-site'
import { exportRecords } from './export-records'
import { type EventFilters, listRecentEvents } from './list-recent-events'
import { listSignupDecisions } from './list-signup-decisions'
import { readVisitorPanel } from './look-up-visitor'
import { readOverview } from './read-overview'

async function read(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

describe('the console’s filters, as the address carries them', () => {
  it('refuse ranges the wrong way round and an address that is none, naming the field', () => {
    const refused = (query: Record<string, string>) =>
      ConsoleEventsQuery.safeParse(query).error?.issues.map((issue) => [issue.path.join('.'), issue.message])
    expect(refused({ from: '2026-11-27', to: '2026-11-01' })).toEqual([
      ['to', 'The end date is before the start date.'],
    ])
    expect(refused({ minScore: '30', maxScore: '10' })).toEqual([
      ['maxScore', 'The highest score is below the lowest.'],
    ])
    expect(refused({ ip: '10.0.0' })?.[0]?.[0]).toBe('ip')
    expect(refused({ from: '27/11/2026' })?.[0]?.[0]).toBe('from')
    expect(ConsoleEventsQuery.parse({ ip: ' 198.51.100.7/24 ', minScore: '5' })).toMatchObject({
      ip: '198.51.100.0/24',
      minScore: 5,
      signal: 'all',
    })
  })
})

describeOnEachEngine('the console’s event and decision filters', (database) => {
  it('narrow events by site, day, score range, signal, linked ID and address or range, and page within them', async () => {
    const { db } = database
    const shop = await createSite({ db, name: 'Filter shop', allowedOrigins: [] })
    const seen: { requestId: string; ip: string }[] = []
    for (let n = 0; n < 6; n++) {
      const ip = n < 4 ? `203.0.113.${10 + n}` : `198.51.100.${n}`
      const event = await identifyVisitor({
        db,
        input: {
          components: syntheticDevice(8100 + n),
          linkedId: n === 5 ? 'order-5' : `filter-${n}`,
          ...(n % 2 === 0 && { siteKey: shop.publicKey }),
        },
        context: { ip, userAgent: 'test' },
      })
      seen.push({ requestId: event.requestId, ip })
    }
    // Two of them yesterday, one with a high score and a Tor exit.
    await ensureEventPartitions(db, new Date(Date.now() - 3 * 86_400_000), new Date())
    const [first, second, third] = seen
    await db.execute(sql`update events set created_at = created_at - interval '1 day'
      where request_id in (${first?.requestId}, ${second?.requestId})`)
    await db.execute(sql`update events set suspect_score = 40 where request_id = ${third?.requestId}`)
    await changeEventSignals(db, third?.requestId ?? '', (signals) => ({
      ...signals,
      tor: { result: true, reasons: [] },
    }))
    const ids = async (filters: EventFilters, limit = 15) =>
      (await listRecentEvents({ db, filters, limit })).events
        .map((event) => seen.findIndex((mine) => mine.requestId === event.requestId))
        .filter((index) => index >= 0)

    expect(await ids({})).toEqual([5, 4, 3, 2, 1, 0])
    expect(await ids({ site: shop.publicKey })).toEqual([4, 2, 0])
    const today = new Date().toISOString().slice(0, 10)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    expect(await ids({ from: today })).toEqual([5, 4, 3, 2])
    expect(await ids({ to: yesterday })).toEqual([1, 0])
    expect(await ids({ from: yesterday, to: yesterday })).toEqual([1, 0])
    expect(await ids({ minScore: 30 })).toEqual([2])
    expect(await ids({ maxScore: 30 })).toEqual([5, 4, 3, 1, 0])
    expect(await ids({ signal: 'tor' })).toEqual([2])
    expect(await ids({ linkedId: 'order-5' })).toEqual([5])
    expect(await ids({ ip: '203.0.113.0/24' })).toEqual([3, 2, 1, 0])
    expect(await ids({ ip: '203.0.113.11' })).toEqual([1])
    expect(await ids({ ip: '203.0.113.0/24', site: shop.publicKey, from: yesterday, to: yesterday })).toEqual(
      [0],
    )

    // Keyset pages of two hold the filtered list, each event once.
    const pages: number[] = []
    let cursor: { createdAt: string; requestId: string } | undefined
    for (;;) {
      const page = await listRecentEvents({ db, filters: { ip: '203.0.113.0/24' }, cursor, limit: 2 })
      pages.push(...page.events.map((event) => seen.findIndex((mine) => mine.requestId === event.requestId)))
      const last = page.events.at(-1)
      if (!page.nextCursor || !last) break
      cursor = { createdAt: last.createdAt, requestId: last.requestId }
    }
    expect(pages).toEqual([3, 2, 1, 0])

    // The site chosen for the whole console: the overview and a visitor's history are that site's.
    const shopOverview = await readOverview({ db, range: '24h', site: shop.publicKey })
    const everyOverview = await readOverview({ db, range: '24h' })
    // Rolled up when identified (the two moved back a day here were counted then).
    expect(shopOverview.totals.identifications).toBe(3)
    expect(everyOverview.totals.identifications).toBeGreaterThanOrEqual(6)
    const [shopEvent] = await listRecentEvents({ db, filters: { site: shop.publicKey }, limit: 1 }).then(
      (page) => page.events,
    )
    const panel = await readVisitorPanel({
      db,
      visitorId: shopEvent?.visitorId ?? '',
      site: 'pk_another_site',
    })
    expect(panel?.events).toEqual([])
    // Its addresses too: none of its visits were on that site.
    expect(panel?.ips).toEqual([])
    expect(
      (await readVisitorPanel({ db, visitorId: shopEvent?.visitorId ?? '', site: shop.publicKey }))?.events,
    ).toHaveLength(1)

    // The export is the list, whole.
    const query = ExportQuery.parse({
      kind: 'events',
      format: 'json',
      ip: '203.0.113.0/24',
      site: shop.publicKey,
    })
    const exported = JSON.parse(await read(exportRecords(db, query, 1)))
    expect(exported.map((event: { requestId: string }) => event.requestId)).toEqual([
      third?.requestId,
      first?.requestId,
    ])
  })

  it('narrow decisions by outcome and by address or domain, and page them to the microsecond', async () => {
    const { db } = database
    // Five decisions in one millisecond, a microsecond apart: a page must not skip any.
    await db.execute(sql`insert into signup_decisions (request_id, visitor_id, ip, email, outcome, reasons, created_at)
      select 'filter-d' || n, null, '192.0.2.1',
        (array['Ann@Shop.example', 'bo@eu.shop.example', 'cy@notshop.example', 'di@shop.example.evil', 'ed@other.example'])[n],
        (array['allow', 'deny', 'deny', 'challenge', 'allow'])[n], '[]',
        '2026-11-20T10:00:00.123000Z'::timestamptz + n * interval '1 microsecond'
      from generate_series(1, 5) n`)
    await db.execute(
      sql`update signup_decisions set site_key = 'pk_filter_shop' where request_id in ('filter-d1', 'filter-d4')`,
    )
    const ofShop = await listSignupDecisions({ db, filters: { outcome: 'all', site: 'pk_filter_shop' } })
    expect(ofShop.decisions.map((decision) => decision.requestId)).toEqual(['filter-d4', 'filter-d1'])
    const emails = async (filters: { outcome: 'all' | 'allow' | 'challenge' | 'deny'; email?: string }) =>
      (await listSignupDecisions({ db, filters, limit: 50 })).decisions
        .filter((decision) => decision.requestId.startsWith('filter-d'))
        .map((decision) => decision.email)
    expect(await emails({ outcome: 'deny' })).toEqual(['cy@notshop.example', 'bo@eu.shop.example'])
    expect(await emails({ outcome: 'all', email: '@shop.example' })).toEqual([
      'bo@eu.shop.example',
      'Ann@Shop.example',
    ])
    expect(await emails({ outcome: 'all', email: 'ann@shop.EXAMPLE' })).toEqual(['Ann@Shop.example'])
    await expect(
      listSignupDecisions({ db, filters: { outcome: 'all', email: '@not a domain' } }),
    ).rejects.toMatchObject({
      status: 400,
    })

    const paged: string[] = []
    let cursor: string | undefined
    for (;;) {
      const page = await listSignupDecisions({
        db,
        filters: { outcome: 'all' },
        cursor,
        limit: 2,
      })
      paged.push(...page.decisions.map((decision) => decision.requestId))
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    expect(paged.filter((id) => id.startsWith('filter-d'))).toEqual([
      'filter-d5',
      'filter-d4',
      'filter-d3',
      'filter-d2',
      'filter-d1',
    ])
    await expect(
      listSignupDecisions({
        db,
        cursor: Buffer.from('["2026-11-20T10:00:00.123Z","x"]').toString('base64url'),
      }),
    ).rejects.toMatchObject({ status: 400 })

    const csv = await read(
      exportRecords(
        db,
        ExportQuery.parse({ kind: 'decisions', format: 'csv', outcome: 'deny', email: '@shop.example' }),
        1,
      ),
    )
    expect(csv).toContain('bo@eu.shop.example')
    expect(csv).not.toContain('cy@notshop.example')
  })
})
