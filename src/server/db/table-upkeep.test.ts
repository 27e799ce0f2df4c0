import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../tests/support/test-database'
import { type DatabaseHandle, queryRows } from './client'
import { analyzeChangedTables, vacuumChurnedTables } from './table-upkeep'

// The embedded database has no autovacuum; analyzeChangedTables keeps its planner statistics.
describe('analyzeChangedTables on the embedded database', () => {
  it('analyzes a table once enough of it changed, and leaves it alone until it changes again', async () => {
    const { db, close } = await openTestDatabase('pglite', '')
    // Activity counts reach pg_stat_user_tables when the backend flushes them (at most once a
    // second); a test makes the next flush happen now.
    const analyze = async () => {
      await db.execute(sql`select pg_stat_force_next_flush()`)
      await db.execute(sql`select 1`)
      return analyzeChangedTables(db)
    }
    try {
      const analyzedAt = async () =>
        (
          await queryRows<{ at: string | null }>(
            db,
            sql`select last_analyze::text as at from pg_stat_user_tables where relname = 'component_stats'`,
          )
        )[0]?.at ?? null
      expect(await analyzedAt()).toBeNull()

      await db.execute(
        sql`insert into component_stats (component, digest, visitors)
            select 'fonts', 'digest-' || n, 1 from generate_series(1, 500) as n`,
      )
      expect(await analyze()).toContain('component_stats')
      expect(await analyzedAt()).not.toBeNull()
      // The planner now knows the table's size.
      const [stats] = await queryRows<{ reltuples: number }>(
        db,
        sql`select reltuples from pg_class where relname = 'component_stats'`,
      )
      expect(stats?.reltuples).toBe(500)

      expect(await analyze()).not.toContain('component_stats')
      // A few rows more are under the threshold (50 + 10% of 500); many more are over it.
      await db.execute(sql`update component_stats set visitors = 2 where digest in ('digest-1', 'digest-2')`)
      expect(await analyze()).not.toContain('component_stats')
      await db.execute(sql`update component_stats set visitors = 3 where digest like 'digest-1%'`)
      expect(await analyze()).toContain('component_stats')

      // A table outside the search path (drizzle keeps its journal in its own schema) is named whole.
      await db.execute(sql`create table drizzle.scratch as select n from generate_series(1, 500) as n`)
      expect(await analyze()).toContain('scratch')
    } finally {
      await close()
    }
  })
})

// The embedded database has no autovacuum; vacuumChurnedTables keeps its small, churned tables.
describe('vacuumChurnedTables on the embedded database', () => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openTestDatabase('pglite', '')
  })
  afterAll(() => handle.close())

  // Activity counts reach pg_stat_user_tables when the backend flushes them (at most once a second);
  // a test makes the next flush happen now.
  const flushed = async () => {
    await handle.db.execute(sql`select pg_stat_force_next_flush()`)
    await handle.db.execute(sql`select 1`)
  }
  const dead = async (table: string) =>
    (
      await queryRows<{ n: number }>(
        handle.db,
        sql`select n_dead_tup::int as n from pg_stat_user_tables where relname = ${table}`,
      )
    )[0]?.n ?? 0
  const size = async (table: string) =>
    (await queryRows<{ bytes: number }>(handle.db, sql`select pg_table_size(${table})::int as bytes`))[0]
      ?.bytes ?? 0

  it('vacuums a counter table once a fifth of it is dead, and keeps it from growing as it is updated', async () => {
    const { db } = handle
    await db.execute(sql`insert into component_stats (component, digest, visitors)
      select 'fonts', 'digest-' || n, 1 from generate_series(1, 2000) as n`)
    await db.execute(sql`analyze component_stats`)
    const written = await size('component_stats')
    await flushed()
    expect(await vacuumChurnedTables(db)).not.toContain('component_stats')

    // A few updates are under the rule (50 + 20% of 2 000 rows)...
    await db.execute(
      sql`update component_stats set visitors = visitors + 1 where digest in ('digest-1', 'digest-2')`,
    )
    await flushed()
    expect(await vacuumChurnedTables(db)).not.toContain('component_stats')
    // ...every row counted again is over it, as each identification's increments add up.
    for (let round = 0; round < 10; round++) {
      await db.execute(sql`update component_stats set visitors = visitors + 1 where component = 'fonts'`)
      await flushed()
      expect(await vacuumChurnedTables(db)).toContain('component_stats')
      await flushed()
      expect(await dead('component_stats')).toBe(0)
    }
    // Ten rewrites of every row, in the space of about two versions of each.
    expect(await size('component_stats')).toBeLessThanOrEqual(2.5 * written)
  })

  it('leaves a table larger than the bound to page pruning', async () => {
    const { db } = handle
    await db.execute(sql`create table churned_large (n int primary key, payload text)`)
    await db.execute(
      sql`insert into churned_large select n, repeat('x', 200) from generate_series(1, 3000) as n`,
    )
    await db.execute(sql`update churned_large set payload = repeat('y', 200)`)
    await flushed()
    const bytes = (
      await queryRows<{ bytes: number }>(
        db,
        sql`select pg_total_relation_size('churned_large')::int as bytes`,
      )
    )[0]?.bytes
    expect(await vacuumChurnedTables(db, (bytes ?? 0) - 1)).not.toContain('churned_large')
    expect(await vacuumChurnedTables(db, bytes)).toContain('churned_large')
  })
})
