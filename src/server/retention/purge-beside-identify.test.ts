import { sql } from 'drizzle-orm'
import { Client } from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { openTestDatabase } from '../../../tests/support/test-database'
import { type Database, type DatabaseHandle, queryRows } from '../db/client'
import { identifyVisitor } from '../identification/identify-visitor'
import { purgeExpiredData } from './purge-expired-data'

const postgresUrl = inject('postgresUrl')
const VALUES = 60
const digestOf = (n: number) => `value-${String(n).padStart(2, '0')}`

/** Until a statement of this database waits on a row lock (five seconds at most). */
async function untilWaitingOnLock(db: Database) {
  for (let waited = 0; waited < 100; waited++) {
    const [waiting] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    )
    if ((waiting?.n ?? 0) > 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

// Two connections on one PostgreSQL: what a pass meets while app servers identify.
describe.skipIf(!postgresUrl)('retention beside identification on PostgreSQL', () => {
  let handle: DatabaseHandle & { url?: string }
  beforeAll(async () => {
    handle = await openTestDatabase('postgres', postgresUrl)
  })
  afterAll(() => handle.close())

  it("takes expired visitors off statistics rows a batch holds without a deadlock, and loses neither's count", async () => {
    const { db } = handle
    await db.execute(sql`insert into visitors (id, profile, counted, first_seen_at, last_seen_at)
      select 'expired-' || n, jsonb_build_object('held', 'value-' || lpad(n::text, 2, '0')), true,
        now() - interval '100 days', now() - interval '100 days'
      from generate_series(0, ${VALUES - 1}) as n`)
    // Stored in the reverse of identify's order, so a pass that takes rows as stored takes the last first.
    await db.execute(sql`insert into component_stats (component, digest, visitors)
      select 'held', 'value-' || lpad(n::text, 2, '0'), 5 from generate_series(${VALUES - 1}, 0, -1) as n`)

    // An identification's batch counts a new visitor under every value, locking the rows in its
    // order (batch-decision.ts): it holds the first when the pass starts.
    const batch = new Client({ connectionString: handle.url })
    await batch.connect()
    try {
      await batch.query('begin')
      await batch.query(
        `update component_stats set visitors = visitors + 1 where component = 'held' and digest = $1`,
        [digestOf(0)],
      )
      const purging = purgeExpiredData({ db, days: 90 })
      const failed = purging.then(
        () => undefined,
        (error: unknown) => error,
      )
      // Until the pass waits on the batch (or ended: it must not have).
      await untilWaitingOnLock(db)
      for (let n = 1; n < VALUES; n++)
        await batch.query(
          `update component_stats set visitors = visitors + 1 where component = 'held' and digest = $1`,
          [digestOf(n)],
        )
      await batch.query('commit')
      expect(await failed).toBeUndefined()
      expect((await purging).visitors).toBe(VALUES)
    } finally {
      await batch.end()
    }
    const counts = await queryRows<{ visitors: number }>(
      db,
      sql`select visitors from component_stats where component = 'held'`,
    )
    // 5, one more by the batch, one fewer by the pass.
    expect(counts.map((row) => row.visitors)).toEqual(Array(VALUES).fill(5))
  })

  it('leaves an expired visitor that a batch is storing again, without waiting for it, and goes on', async () => {
    const { db } = handle
    // More than a chunk (200), the held one the longest unseen: in the first chunk.
    await db.execute(sql`insert into visitors (id, profile, counted, first_seen_at, last_seen_at)
      select 'returning-' || n, '{}', true, now() - interval '100 days',
        now() - interval '100 days' - case when n = 2 then interval '1 day' else interval '0 days' end
      from generate_series(1, 250) as n`)
    const batch = new Client({ connectionString: handle.url })
    await batch.connect()
    try {
      // A comeback's batch holds its visitor's row until it commits (batch-write.ts upserts it).
      await batch.query('begin')
      await batch.query(`select 1 from visitors where id = 'returning-2' for update`)
      expect((await purgeExpiredData({ db, days: 90 })).visitors).toBe(249)
      await batch.query(`update visitors set last_seen_at = now() where id = 'returning-2'`)
      await batch.query('commit')
    } finally {
      await batch.end()
    }
    const left = await queryRows<{ id: string }>(db, sql`select id from visitors where id like 'returning-%'`)
    expect(left).toEqual([{ id: 'returning-2' }])
  })

  it('stores a comeback whose visitor was deleted while it waited as a new visitor, every value counted', async () => {
    const { db } = handle
    const context = { ip: null, userAgent: null }
    const components = syntheticDevice(7_001)
    const first = await identifyVisitor({ db, input: { components }, context })
    // How many visitors hold each of a visitor's values, summed.
    const counted = async (visitorId: string) =>
      (
        await queryRows<{ total: number }>(
          db,
          sql`select coalesce(sum(s.visitors), 0)::int as total
            from visitors v, jsonb_each_text(v.profile) as p(component, digest)
            join component_stats s on s.component = p.component and s.digest = p.digest
            where v.id = ${visitorId}`,
        )
      )[0]?.total
    const before = await counted(first.visitorId)
    // Retention (or a forget) holds the visitor's row, then deletes it and takes off its values...
    const pass = new Client({ connectionString: handle.url })
    await pass.connect()
    try {
      await pass.query('begin')
      await pass.query('select 1 from visitors where id = $1 for update', [first.visitorId])
      // ...while the same device comes back: its batch read the visitor and waits to write it.
      const comeback = identifyVisitor({ db, input: { components }, context })
      await untilWaitingOnLock(db)
      await pass.query(
        `with gone as (delete from visitors where id = $1 returning profile)
         update component_stats s set visitors = s.visitors - 1
         from gone, jsonb_each_text(gone.profile) as p(component, digest)
         where s.component = p.component and s.digest = p.digest`,
        [first.visitorId],
      )
      await pass.query('commit')
      const again = await comeback
      // The visitor is gone: the comeback is a new one, whose values all count once more.
      expect(again.visitorId).not.toBe(first.visitorId)
      const [kept] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from visitors where id = ${first.visitorId}`,
      )
      expect(kept?.n).toBe(0)
      expect(await counted(again.visitorId)).toBe(before)
    } finally {
      await pass.end()
    }
  })
})
