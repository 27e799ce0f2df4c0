import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import { type Database, selectRows } from './client'

// PGlite runs PostgreSQL as one standalone backend, without the autovacuum launcher: on the embedded
// database this does autovacuum's work, by its default rules, one table at a time.

/**
 * The largest table (with its indexes) vacuumed on the embedded database: PGlite runs in the server's
 * own thread, so every request waits meanwhile (about 0.1 s for 38 MB of counters, measured).
 */
const LARGEST_VACUUMED = 32 * 1_048_576

/** Runs `command` (VACUUM, ANALYZE) on each table whose statistics (`s`, its pg_class row `c`) meet `due`. */
async function tendTables(db: Database, command: 'vacuum' | 'analyze', due: SQL): Promise<string[]> {
  const tables = await selectRows(
    db,
    { schema: sql<string>`s.schemaname`, table: sql<string>`s.relname` },
    (select) => sql`select ${select}
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where ${due} order by s.schemaname, s.relname`,
  )
  for (const { schema, table } of tables)
    await db.execute(sql`${sql.raw(command)} ${sql.identifier(schema)}.${sql.identifier(table)}`)
  return tables.map(({ table }) => table)
}

/**
 * Autovacuum's analyze part: no table of the embedded database is otherwise ever analyzed, and the
 * planner keeps guessing from table sizes while visitors, keys and events grow from nothing to
 * millions. A table whose rows changed by more than 50 + 10% of its size since it was last analyzed
 * (or that never was) is analyzed. ANALYZE reads a bounded sample (30 000 rows a table), so each
 * statement holds the one connection briefly. Returns the tables analyzed.
 */
export function analyzeChangedTables(db: Database): Promise<string[]> {
  return tendTables(
    db,
    'analyze',
    sql`s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
      or (s.last_analyze is null and s.last_autoanalyze is null and s.n_live_tup > 50)`,
  )
}

/**
 * Autovacuum's vacuum part, on small tables only. Counters updated in place at every identification
 * (the console's rollups, the value statistics, rate limits, sessions) leave a dead version of a row
 * at each update, and page pruning alone let the rollups grow to seven times their rows' size, which
 * every overview then reads. A table with more than 50 + 20% of its rows dead is vacuumed if it is at
 * most `largest` bytes with its indexes; larger ones (events, visitors and their keys, once a
 * deployment is busy) are left to page pruning, as vacuuming one would stop every request for
 * seconds. Returns the tables vacuumed.
 */
export function vacuumChurnedTables(db: Database, largest = LARGEST_VACUUMED): Promise<string[]> {
  return tendTables(
    db,
    'vacuum',
    sql`s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) and pg_total_relation_size(s.relid) <= ${largest}`,
  )
}

/**
 * Keeps the embedded database's tables once a minute (autovacuum's naptime): vacuums the small
 * tables that updates churned, then analyzes the tables that changed. One pass at a time.
 */
export function runTableUpkeep(
  db: Database,
  report: {
    tended: (tables: { vacuumed: string[]; analyzed: string[] }) => void
    failed: (error: unknown) => void
  },
  intervalMs = 60_000,
) {
  let running = false
  // Each step on its own: a vacuum that fails leaves the planner's statistics kept all the same.
  const step = (run: (db: Database) => Promise<string[]>) =>
    run(db).catch((error: unknown) => {
      report.failed(error)
      return []
    })
  const tick = async () => {
    if (running) return
    running = true
    try {
      const vacuumed = await step(vacuumChurnedTables)
      const analyzed = await step(analyzeChangedTables)
      if (vacuumed.length + analyzed.length > 0) report.tended({ vacuumed, analyzed })
    } finally {
      running = false
    }
  }
  const timer = setInterval(() => void tick(), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
