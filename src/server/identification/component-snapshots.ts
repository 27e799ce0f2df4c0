import 'server-only'

import { createHash } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import type { ComponentResult } from '@/contracts/identify'
import { type Database, selectRows } from '../db/client'
import { byJsonbKey, jsonbText } from '../db/jsonb-text'
import { packDurations, unpackDurations } from '../db/packed-durations'
import { componentSnapshots, type StoredComponents } from '../db/schema'

// An event's components live in a content-addressed snapshot (db/schema/events.ts, migrations 0018
// and 0040): the values once, however many events repeat them, packed, and each event's durations
// beside it. These are the only places that know it; readers get the components as the agent sent them.

/** What a write stores of an event's components: its snapshot (by digest) and its own durations. */
export interface SnapshotOfEvent {
  /** SHA-256 of the snapshot's jsonb text (16 bytes, as a uuid): the digest SQL gave it before. */
  digest: string
  /** The snapshot as its column stores it (packed). */
  stored: Buffer
  /** Each component's duration, in the snapshot's key order (packed-durations.ts). */
  durations: Buffer
}

export function snapshotOfEvent(components: Record<string, ComponentResult>): SnapshotOfEvent {
  const snapshot: StoredComponents = {}
  const durations: number[] = []
  for (const name of Object.keys(components).sort(byJsonbKey)) {
    const { duration, ...rest } = components[name] as ComponentResult
    snapshot[name] = rest
    durations.push(duration)
  }
  const hex = createHash('sha256').update(jsonbText(snapshot)).digest('hex')
  return {
    digest: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
    stored: componentSnapshots.components.mapToDriverValue(snapshot) as Buffer,
    durations: packDurations(durations),
  }
}

/** The components as sent: the snapshot's entries, each with its duration put back. */
function withDurations(
  snapshot: StoredComponents,
  durations: (number | null)[],
): Record<string, ComponentResult> {
  const components: Record<string, ComponentResult> = {}
  Object.entries(snapshot).forEach(([name, entry], at) => {
    const duration = durations[at]
    components[name] = (
      duration === null || duration === undefined ? entry : { ...entry, duration }
    ) as ComponentResult
  })
  return components
}

/**
 * The components of the event aliased `event`, as sent (a subquery: no join needed). Read as one
 * value: the durations' length (4 bytes), the durations, then the packed snapshot, which its decoder
 * turns into the components: select it as a field of its own (selectRows and the builder decode it;
 * wrapped in another sql`` it reads as bytes).
 */
export function eventComponents(event: string): SQL<Record<string, ComponentResult> | null> {
  const alias = sql.raw(event)
  return sql`(select int4send(length(${alias}.durations)) || ${alias}.durations || s.components
    from component_snapshots s where s.digest = ${alias}.snapshot)`.mapWith((value: Uint8Array) => {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    const length = bytes.readInt32BE(0)
    const snapshot = componentSnapshots.components.mapFromDriverValue(
      bytes.subarray(4 + length),
    ) as StoredComponents
    return withDurations(snapshot, unpackDurations(bytes.subarray(4, 4 + length)))
  })
}

/**
 * The common table expressions that store the snapshots events reference (`rows`: digest, stored
 * snapshot, the event's time), for a statement that writes those events:
 * - `new_snapshots` inserts those not stored;
 * - `held_snapshots` takes a key-share lock on those stored, held until the write commits, which
 *   writes share and deleters wait for (retention and forgetting lock what they delete, then look
 *   again: they then see this write's event or new last day);
 * - `dated_snapshots` moves a stored one's last day to its latest event's (once a day each: the only
 *   exclusive lock a write takes on a snapshot).
 * A snapshot deleted between the insert's look and the lock is neither inserted nor held:
 * `VANISHED_SNAPSHOTS` counts those, and a write that has any must run again (SnapshotVanished).
 */
export function snapshotWrites(rows: SQL): SQL {
  return sql`used_snapshots as materialized (
      select digest, (array_agg(stored))[1] as stored, max((created_at at time zone 'UTC')::date) as day
      from ${rows} group by digest),
    new_snapshots as (
      insert into component_snapshots (digest, components, last_day)
      -- In digest order: two writes adding the same new snapshots never wait on each other crosswise.
      select digest, stored, day from used_snapshots order by digest
      on conflict (digest) do nothing returning digest),
    held_snapshots as (
      select s.digest from component_snapshots s join used_snapshots u on u.digest = s.digest
      order by s.digest for key share of s),
    -- Of the held ones: the lock is taken before the update (a row this statement updated first
    -- would be skipped by its own lock, and look vanished).
    dated_snapshots as (
      update component_snapshots s set last_day = u.day from held_snapshots h join used_snapshots u using (digest)
      where s.digest = h.digest and s.last_day < u.day)`
}

/** Snapshots a write referenced that it neither inserted nor holds (see snapshotWrites). */
export const VANISHED_SNAPSHOTS = sql`((select count(*) from used_snapshots)
  - (select count(*) from new_snapshots) - (select count(*) from held_snapshots))::int`

/** A snapshot the write references was deleted under it: nothing was stored, and the write runs again. */
export class SnapshotVanished extends Error {
  constructor() {
    super('a component snapshot was deleted while a write referenced it')
  }
}

/** snapshotWrites as a statement of its own: the snapshots of events written next (tests, tools). */
export function storeSnapshots(rows: SQL): SQL {
  return sql`with ${snapshotWrites(rows)} select ${VANISHED_SNAPSHOTS} as vanished`
}

/** Snapshots one deletion statement takes. */
const EXPIRED_CHUNK = 5_000

/**
 * Deletes the snapshots last used before `before` (a UTC midnight) and before the oldest stored
 * event's day, which no stored event can reference, a chunk at a time (migration 0022); returns
 * how many went (a write that reused one meanwhile keeps it). Read by their last day's index:
 * the cost is the snapshots deleted, whatever the events kept. `between` is awaited between
 * chunks (retention paces them).
 */
export async function deleteExpiredSnapshots(
  db: Database,
  before: Date,
  between: () => Promise<void> = async () => {},
): Promise<number> {
  const day = before.toISOString().slice(0, 10)
  let deleted = 0
  for (;;) {
    const [chunk] = await selectRows(
      db,
      { seen: sql<number>`seen`, deleted: sql<number>`deleted` },
      (select) => sql`select ${select} from tessera_delete_expired_snapshots(${day}::date, ${EXPIRED_CHUNK})`,
    )
    deleted += chunk?.deleted ?? 0
    if ((chunk?.seen ?? 0) < EXPIRED_CHUNK) return deleted
    await between()
  }
}
