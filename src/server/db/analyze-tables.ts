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
 * Vacuum is not done here: on one connection it would stop every identification for as long as it
 * scans a table, seconds at a million visitors. Space that updates and purges leave is reclaimed by
 * PostgreSQL's page pruning only; large deployments run PostgreSQL, whose autovacuum does the rest.
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

/** Analyzes changed tables of the embedded database once a minute, as autovacuum's naptime would. */
export function runTableAnalysis(
  db: Database,
  report: { analyzed: (tables: string[]) => void; failed: (error: unknown) => void },
  intervalMs = 60_000,
) {
  let running = false
  const tick = () => {
    if (running) return
    running = true
    analyzeChangedTables(db)
      .then((tables) => tables.length > 0 && report.analyzed(tables), report.failed)
      .finally(() => {
        running = false
      })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
