import 'server-only'
import { type SQL, sql } from 'drizzle-orm'

/**
 * Two CTEs (`statistics_locked`, `statistics`) that take `counts` (a relation of component, digest,
 * n: the visitors counted in the statistics, and n_all: every visitor) off the value statistics. The rows are locked first in identify's order (by component, then
 * digest, bytewise: batch-decision.ts sorts its changes so), so a statement taking visitors off
 * never waits on an identification's batch while that batch waits on it: two such orders make a
 * deadlock, and PostgreSQL cancels one of them. Every row the update touches it has locked already.
 */
export function takeOffStatistics(counts: SQL): SQL {
  return sql`statistics_locked as materialized (
      select s.component, s.digest, c.n, c.n_all from component_stats s
      join ${counts} c on s.component = c.component and s.digest = c.digest
      order by s.component collate "C", s.digest collate "C"
      for update of s),
    statistics as (
      update component_stats set visitors = component_stats.visitors - l.n,
        all_visitors = component_stats.all_visitors - l.n_all
      from statistics_locked l
      where component_stats.component = l.component and component_stats.digest = l.digest)`
}
