import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { seededRandom } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { ensureEventPartitions } from '../db/event-partitions'
import { flagsOf } from '../db/schema'
import { purgeExpiredData } from '../retention/purge-expired-data'
import { compactVisitorSketches, foldRollupsIntoDays } from './compact-sketches'
import { readOverview } from './read-overview'

const HOUR = 3_600_000
const EMPTY_SNAPSHOT = '99914b93-2bd3-7a50-b983-c5e7c90ae93b'
const kinds = ['tor', 'vpn', 'datacenter', 'residential', 'unknown'] as const

/** The flags (event-flags.ts) of signals that the overview classes as `kind`. */
function flagsFor(kind: (typeof kinds)[number], bot: boolean) {
  return flagsOf({
    bot: { result: bot ? 'bad' : 'notDetected', reasons: [] },
    tor: { result: kind === 'tor', reasons: [] },
    vpn: {
      result: kind === 'vpn',
      confidence: 'high',
      reasons: [],
      details: {
        originTimezone: null,
        originCountry: null,
        methods: { timezoneMismatch: false, publicVpn: kind === 'vpn', relay: false },
      },
    },
    datacenter: { result: kind === 'datacenter', reasons: [] },
  })
}

interface Stored {
  at: number
  site: string | null
  visitor: string
  found: boolean
  bot: boolean
  kind: (typeof kinds)[number]
  country: string | null
  outcome?: 'allow' | 'challenge' | 'deny'
}

describeOnEachEngine('the overview from rollups', (suite) => {
  it('answers what a scan of the raw events would, for every range, before and after compaction', async () => {
    const { db } = suite
    const random = seededRandom(28)
    const now = Date.now()
    const stored: Stored[] = []
    // On PostgreSQL the 40 days need their tables, as a server running for them has.
    await ensureEventPartitions(db, new Date(now - 41 * 24 * HOUR), new Date(now))
    await db.execute(
      sql`insert into component_snapshots values (${EMPTY_SNAPSHOT}, '{}') on conflict do nothing`,
    )
    await db.execute(
      sql`insert into visitors (id, profile) select 'ov-' || n, '{}' from generate_series(0, 39) n`,
    )
    // Several statements, as batches are: each adds its counts and its own visitor sketch.
    for (let batch = 0; batch < 12; batch++) {
      const rows: Stored[] = Array.from({ length: 25 }, () => {
        const kind = kinds[Math.floor(random() * kinds.length)] ?? 'unknown'
        const outcomes = [undefined, undefined, 'allow', 'challenge', 'deny'] as const
        return {
          // Up to 40 days back, a fifth of them within the last day.
          at: now - (random() < 0.2 ? random() * 23 : random() * 40 * 24) * HOUR,
          site: random() < 0.5 ? 'site-a' : random() < 0.5 ? 'site-b' : null,
          visitor: `ov-${Math.floor(random() ** 2 * 40)}`,
          found: random() < 0.6,
          bot: random() < 0.1,
          kind,
          country: kind === 'unknown' ? null : (['DE', 'US', 'JP'][Math.floor(random() * 3)] ?? 'DE'),
          outcome: outcomes[Math.floor(random() * outcomes.length)],
        }
      })
      const ids = rows.map((_, index) => `ov-${batch}-${index}`)
      await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method,
          site_key, flags, country, asn, snapshot, durations)
        select id, visitor, at, found, 1, 'fingerprint', site, flags, country, asn, ${EMPTY_SNAPSHOT}, ''
        from unnest(${sql.param(ids)}::text[], ${sql.param(rows.map((row) => row.visitor))}::text[],
          ${sql.param(rows.map((row) => new Date(row.at).toISOString()))}::timestamptz[],
          ${sql.param(rows.map((row) => row.found))}::boolean[], ${sql.param(rows.map((row) => row.site))}::text[],
          ${sql.param(rows.map((row) => flagsFor(row.kind, row.bot)))}::int[],
          ${sql.param(rows.map((row) => row.country))}::text[],
          ${sql.param(rows.map((row) => (row.kind === 'unknown' ? null : 64_500)))}::int[])
          as input(id, visitor, at, found, site, flags, country, asn)`)
      const decided = rows.flatMap((row, index) => (row.outcome ? [{ ...row, id: ids[index] ?? '' }] : []))
      if (decided.length > 0)
        await db.execute(sql`insert into signup_decisions (request_id, visitor_id, email, outcome, reasons, created_at)
          select id, visitor, 'x@example.com', outcome, '[]', at
          from unnest(${sql.param(decided.map((row) => row.id))}::text[], ${sql.param(decided.map((row) => row.visitor))}::text[],
            ${sql.param(decided.map((row) => row.outcome))}::text[],
            ${sql.param(decided.map((row) => new Date(row.at).toISOString()))}::timestamptz[])
            as input(id, visitor, outcome, at)`)
      stored.push(...rows)
    }

    const expected = (hours: number) => {
      // 24 hours start at an hour's start, longer ranges at a UTC day's.
      const unit = hours === 24 ? HOUR : 24 * HOUR
      const since = Math.floor((now - hours * HOUR) / unit) * unit
      const within = stored.filter((row) => row.at >= since)
      const count = (rows: Stored[]) => ({
        identifications: rows.length,
        allow: rows.filter((row) => row.outcome === 'allow').length,
        challenge: rows.filter((row) => row.outcome === 'challenge').length,
        deny: rows.filter((row) => row.outcome === 'deny').length,
      })
      return {
        totals: {
          identifications: within.length,
          visitors: new Set(within.map((row) => row.visitor)).size,
          returningShare: within.filter((row) => row.found).length / within.length,
          bots: within.filter((row) => row.bot).length,
        },
        signups: { allow: count(within).allow, challenge: count(within).challenge, deny: count(within).deny },
        byType: kinds
          .map((type) => ({ type, ...count(within.filter((row) => row.kind === type)) }))
          .filter((row) => row.identifications > 0),
        countries: new Map(
          [...new Set(within.map((row) => row.country))].map((country) => [
            country,
            count(within.filter((row) => row.country === country)),
          ]),
        ),
        buckets: within.length,
      }
    }

    const check = async () => {
      for (const [range, hours] of [
        ['24h', 24],
        ['7d', 24 * 7],
        ['30d', 24 * 30],
      ] as const) {
        const overview = await readOverview({ db, range })
        const want = expected(hours)
        expect(overview.totals.identifications).toBe(want.totals.identifications)
        expect(overview.totals.visitors).toBe(want.totals.visitors)
        expect(overview.totals.bots).toBe(want.totals.bots)
        expect(overview.totals.returningShare).toBeCloseTo(want.totals.returningShare, 10)
        expect(overview.signups).toEqual(want.signups)
        expect(overview.networks.byType).toEqual(expect.arrayContaining(want.byType))
        expect(overview.networks.byType).toHaveLength(want.byType.length)
        for (const row of overview.networks.byCountry)
          expect(row).toEqual({ country: row.country, ...want.countries.get(row.country) })
        const series = overview.series.reduce((sum, point) => sum + point.identifications, 0)
        expect(series).toBe(want.buckets)
        expect(overview.series.map((point) => point.bucket)).toEqual(
          [...overview.series.map((point) => point.bucket)].sort(),
        )
      }
    }
    await check()
    const before = await readOverview({ db, range: '30d' })
    const rows = async () =>
      (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from visitor_sketches`))[0]?.n ?? 0
    const uncompacted = await rows()
    expect(await compactVisitorSketches(db)).toBeGreaterThan(0)
    expect(await rows()).toBeLessThan(uncompacted)
    expect(await compactVisitorSketches(db)).toBe(0)
    await check()
    expect(await readOverview({ db, range: '30d' })).toEqual(before)

    // Hours older than two days fold into their day: fewer rows, the same answers.
    const rollupRows = async () =>
      (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from event_rollups`))[0]?.n ?? 0
    const unfolded = await rollupRows()
    const moved = await foldRollupsIntoDays(db)
    expect(moved.rows).toBeGreaterThan(0)
    expect(moved.sketches).toBeGreaterThan(0)
    expect(await rollupRows()).toBeLessThan(unfolded)
    expect(await foldRollupsIntoDays(db)).toEqual({ rows: 0, sketches: 0 })
    await check()
    expect(await readOverview({ db, range: '30d' })).toEqual(before)

    // Retention takes the rollups of the hours it purged, and only those.
    await purgeExpiredData({ db, days: 35 })
    const [oldest] = await queryRows<{ hours: number }>(
      db,
      sql`select count(*)::int as hours from event_rollups where hour < now() - interval '36 days'`,
    )
    expect(oldest?.hours).toBe(0)
    await check()
  })
})
