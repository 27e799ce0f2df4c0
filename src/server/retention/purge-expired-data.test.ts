import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedPersonalData, tablesContaining } from '../../../tests/support/personal-data'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { openTestDatabase } from '../../../tests/support/test-database'
import { type DatabaseHandle, queryRows } from '../db/client'
import { identifyVisitor } from '../identification/identify-visitor'
import { purgeExpiredData } from './purge-expired-data'

describe('purgeExpiredData', () => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openTestDatabase('pglite', '')
  })
  afterAll(() => handle.close())

  it('removes events and visitors past the retention period, and only those', async () => {
    const context = { ip: null, userAgent: null }
    const old = await identifyVisitor({ db: handle.db, input: { components: syntheticDevice(1) }, context })
    const fresh = await identifyVisitor({ db: handle.db, input: { components: syntheticDevice(2) }, context })
    await handle.db.execute(
      sql`update events set created_at = now() - interval '91 days' where visitor_id = ${old.visitorId}`,
    )
    await handle.db.execute(
      sql`update visitors set last_seen_at = now() - interval '91 days' where id = ${old.visitorId}`,
    )

    const removed = await purgeExpiredData({ db: handle.db, days: 90 })
    expect(removed).toMatchObject({ events: 1, visitors: 1 })
    // Each step's time, for the log and bench:scale.
    expect(Object.keys(removed.took)).toEqual([
      'days',
      'detaching',
      'dropping',
      'rows',
      'visitors',
      'snapshots',
    ])
    expect(Object.values(removed.took).every((ms) => Number.isInteger(ms) && ms >= 0)).toBe(true)
    const left = await queryRows<{ visitor_id: string }>(handle.db, sql`select visitor_id from events`)
    expect(left.map((row) => row.visitor_id)).toEqual([fresh.visitorId])
    const [stats] = await queryRows<{ total: number }>(
      handle.db,
      sql`select sum(visitors)::int as total from component_stats where component = 'platform'`,
    )
    expect(stats?.total).toBe(1)
  })

  it("removes an expired visitor's events of the cutoff's own day with it, which the day keeps", async () => {
    const context = { ip: null, userAgent: null }
    const gone = await identifyVisitor({ db: handle.db, input: { components: syntheticDevice(3) }, context })
    const noon = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`)
    // Seen at 11:00, 90 days before a pass at noon: past the cutoff, within the day events are kept by.
    const seen = new Date(noon.getTime() - 90 * 86_400_000 - 3_600_000).toISOString()
    await handle.db.execute(sql`update events set created_at = ${seen} where visitor_id = ${gone.visitorId}`)
    await handle.db.execute(sql`update visitors set last_seen_at = ${seen} where id = ${gone.visitorId}`)

    const [used] = await queryRows<{ snapshot: string }>(
      handle.db,
      sql`select snapshot from events where visitor_id = ${gone.visitorId}`,
    )
    await handle.db.execute(
      sql`update component_snapshots set last_day = ${seen.slice(0, 10)} where digest = ${used?.snapshot}`,
    )

    expect(await purgeExpiredData({ db: handle.db, days: 90, now: noon })).toMatchObject({ visitors: 1 })
    const left = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from events where visitor_id = ${gone.visitorId}`,
    )
    expect(left[0]?.n).toBe(0)
    // Its snapshot goes with the rest of its day (the next day's pass at the latest), by the
    // snapshot step, not by a look-up through every day's events for each chunk of visitors.
    const snapshots = async () =>
      (
        await queryRows<{ n: number }>(
          handle.db,
          sql`select count(*)::int as n from component_snapshots where digest = ${used?.snapshot}`,
        )
      )[0]?.n
    expect(await snapshots()).toBe(1)
    await purgeExpiredData({ db: handle.db, days: 90, now: new Date(noon.getTime() + 86_400_000) })
    expect(await snapshots()).toBe(0)
  })

  it('removes many expired visitors in chunks, each taking its share of the statistics, and keeps the rest', async () => {
    const { db } = handle
    // 450 stored visitors last seen 100 days ago (more than two chunks), each counted under one
    // value but every tenth beyond its network's budget (counted among all visitors only).
    await db.execute(sql`insert into visitors (id, profile, counted, first_seen_at, last_seen_at)
      select 'gone-' || n, jsonb_build_object('chunked', 'value-' || (n % 3)), n % 10 <> 0, now() - interval '100 days',
        now() - interval '100 days'
      from generate_series(1, 450) as n`)
    await db.execute(
      sql`insert into visitors (id, profile, counted) values ('kept', '{"chunked": "value-0"}', true)`,
    )
    await db.execute(sql`insert into component_stats (component, digest, visitors, all_visitors)
      values ('chunked', 'value-0', 136, 151), ('chunked', 'value-1', 135, 150), ('chunked', 'value-2', 135, 150)`)

    const removed = await purgeExpiredData({ db, days: 90 })
    expect(removed.visitors).toBe(450)
    const stats = await queryRows<{ digest: string; visitors: number; all: number }>(
      db,
      sql`select digest, visitors, all_visitors as all from component_stats where component = 'chunked' order by digest`,
    )
    expect(stats).toEqual([
      { digest: 'value-0', visitors: 1, all: 1 },
      { digest: 'value-1', visitors: 0, all: 0 },
      { digest: 'value-2', visitors: 0, all: 0 },
    ])
    const left = await queryRows<{ id: string }>(
      db,
      sql`select id from visitors where id = 'kept' or id like 'gone-%'`,
    )
    expect(left.map((row) => row.id)).toEqual(['kept'])
  })

  it('leaves no personal data past a short retention: decisions, deliveries, sessions, counters', async () => {
    const person = await seedPersonalData(handle.db, 90)
    const [operator] = await queryRows<{ id: string }>(
      handle.db,
      sql`insert into operators (id, username, password_hash) values ('op_purge', 'purge', 'x') returning id`,
    )
    await handle.db.execute(
      sql`insert into operator_sessions (token_hash, operator_id, expires_at)
          values ('expired-session', ${operator?.id}, now() + interval '12 hours')`,
    )
    const needles = [person.visitorId, ...person.requestIds, person.ip, person.linkedId, person.url]
    const later = new Date(Date.now() + 2 * 86_400_000)

    const removed = await purgeExpiredData({ db: handle.db, days: 1, now: later })

    // Deliveries: the two identifications and the sign-up decision.
    expect(removed).toMatchObject({ decisions: 1, deliveries: 3, sessions: 1 })
    expect(removed.rateLimits).toBeGreaterThanOrEqual(2)
    expect(await tablesContaining(handle.db, needles)).toEqual([])
    const [left] = await queryRows<{ sessions: number; limits: number; marks: number }>(
      handle.db,
      sql`select (select count(*) from operator_sessions)::int as sessions,
                 (select count(*) from rate_limits)::int as limits,
                 (select count(*) from accounts where device_mark is not null or browser_id is not null)::int as marks`,
    )
    expect(left).toEqual({ sessions: 0, limits: 0, marks: 0 })
    // The account itself is the integrator's record: it stays, unlinked.
    expect(await tablesContaining(handle.db, [person.email])).toEqual([`accounts: ${person.email}`])
  })
})
