import 'server-only'
import { type SQL, sql } from 'drizzle-orm'

// An event's components live in a content-addressed snapshot (db/schema/events.ts, migration 0018):
// the values once, however many events repeat them, and each event's durations beside it. These
// are the only places that know it; readers get the components exactly as the agent sent them.

/** The components of the event aliased `event`, as sent (a subquery: no join needed). */
export function eventComponents(event: string): SQL {
  const alias = sql.raw(event)
  return sql`(select tessera_components(s.components, ${alias}.durations) from component_snapshots s
    where s.digest = ${alias}.snapshot)`
}

/** What a write stores of components (jsonb, as sent): the values without their durations. */
export function snapshotOf(components: SQL): SQL {
  return sql`tessera_snapshot(${components})`
}

/** A snapshot's digest (tessera_snapshot_digest: SHA-256 of its jsonb text). */
export function snapshotDigest(snapshot: SQL): SQL {
  return sql`tessera_snapshot_digest(${snapshot})`
}

/** The foreign key a write trips when the last event of its snapshot was deleted meanwhile. */
export const SNAPSHOT_REFERENCE = 'events_snapshot_component_snapshots_digest_fk'
