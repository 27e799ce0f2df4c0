import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from './client'

/** The largest table (with its indexes) vacuumed on the embedded database: its one connection waits meanwhile. */
const LARGEST_VACUUMED = 64 * 1_048_576

/**
 * Autovacuum's vacuum part for the embedded database (PGlite has no autovacuum), on its small tables
 * only. Counters updated in place at every identification (the console's rollups, the value
 * statistics, rate limits, sessions) leave a dead version of a row behind at each update, and page
 * pruning alone let the rollups grow to seven times their rows' size, which every overview then
 * reads. By autovacuum's default rule (more than 50 + 20% of its rows dead), one table at a time,
 * each of at most `largest` bytes with its indexes: the tables that grow with traffic (events, visitors, their keys)
 * are left to page pruning, as vacuuming one would stop every identification for seconds. Returns
 * the tables vacuumed.
 */
export async function vacuumChurnedTables(db: Database, largest = LARGEST_VACUUMED): Promise<string[]> {
  const due = await selectRows(
    db,
    { schema: sql<string>`s.schemaname`, table: sql<string>`s.relname` },
    (select) => sql`select ${select}
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
          and pg_total_relation_size(s.relid) <= ${largest}
        order by s.schemaname, s.relname`,
  )
  for (const { schema, table } of due)
    await db.execute(sql`vacuum ${sql.identifier(schema)}.${sql.identifier(table)}`)
  return due.map(({ table }) => table)
}
