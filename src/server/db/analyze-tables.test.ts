import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../tests/support/test-database'
import { analyzeChangedTables } from './analyze-tables'
import { queryRows } from './client'

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
