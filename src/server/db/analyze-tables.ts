import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from './client'

/**
 * PGlite runs PostgreSQL as one standalone backend, without the autovacuum launcher, so on the
 * embedded database no table is ever analyzed: the planner keeps guessing from table sizes while
 * visitors, keys and events grow from nothing to millions. This does autovacuum's analyze part, by
 * its default rule: a table whose rows changed by more than 50 + 10% of its size since it was last
 * analyzed (or that never was) is analyzed, one table at a time. ANALYZE reads a bounded sample
 * (30 000 rows a table), so each statement holds the one connection briefly.
 *
 * Vacuum is done for small tables only (vacuum-tables.ts); both run on a timer (run-table-upkeep.ts).
 */
export async function analyzeChangedTables(db: Database): Promise<string[]> {
  const due = await selectRows(
    db,
    { schema: sql<string>`s.schemaname`, table: sql<string>`s.relname` },
    (select) => sql`select ${select}
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
           or (s.last_analyze is null and s.last_autoanalyze is null and s.n_live_tup > 50)
        order by s.schemaname, s.relname`,
  )
  for (const { schema, table } of due)
    await db.execute(sql`analyze ${sql.identifier(schema)}.${sql.identifier(table)}`)
  return due.map(({ table }) => table)
}
