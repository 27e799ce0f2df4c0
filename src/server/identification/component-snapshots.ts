import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'

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

/**
 * Stores the snapshots events reference (`rows`: digest, snapshot, and the event's time), or moves
 * a stored one's last day to its latest event's. Either way the row stays locked until the write
 * commits (an upsert locks the row it finds, even when it changes nothing), so retention and
 * forgetting, which lock what they delete and then look again, never take a snapshot from under an
 * event being written: they wait, then see its new last day or its event. In digest order, so two
 * writes never wait on each other crosswise.
 */
export function storeSnapshots(rows: SQL): SQL {
  return sql`insert into component_snapshots (digest, components, last_day)
    select distinct on (digest) digest, stored, max(day) over (partition by digest) from (
      select digest, stored, (created_at at time zone 'UTC')::date as day from ${rows}) as used
    order by digest
    on conflict (digest) do update set last_day = excluded.last_day
      where component_snapshots.last_day < excluded.last_day`
}

/** Snapshots one deletion statement takes. */
const EXPIRED_CHUNK = 5_000

/**
 * Deletes the snapshots last used before `before` (a UTC midnight) and before the oldest stored
 * event's day, which no stored event can reference, a chunk at a time (migration 0022); returns
 * how many it took up (a write that reused one meanwhile keeps it). Read by their last day's index:
 * the cost is the snapshots deleted, whatever the events kept.
 */
export async function deleteExpiredSnapshots(db: Database, before: Date): Promise<number> {
  const day = before.toISOString().slice(0, 10)
  let deleted = 0
  for (;;) {
    const [chunk] = await selectRows(
      db,
      { seen: sql<number>`tessera_delete_expired_snapshots(${day}::date, ${EXPIRED_CHUNK})` },
      (select) => sql`select ${select}`,
    )
    const seen = chunk?.seen ?? 0
    deleted += seen
    if (seen < EXPIRED_CHUNK) return deleted
  }
}
