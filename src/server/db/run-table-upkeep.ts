import 'server-only'
import { analyzeChangedTables } from './analyze-tables'
import type { Database } from './client'
import { vacuumChurnedTables } from './vacuum-tables'

/**
 * Keeps the embedded database's tables as autovacuum would, once a minute (its naptime): vacuums
 * the small tables that updates churned, then analyzes the tables that changed. One pass at a time.
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
  const tick = () => {
    if (running) return
    running = true
    vacuumChurnedTables(db)
      .then(async (vacuumed) => {
        const analyzed = await analyzeChangedTables(db)
        if (vacuumed.length + analyzed.length > 0) report.tended({ vacuumed, analyzed })
      })
      .catch(report.failed)
      .finally(() => {
        running = false
      })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
