import 'server-only'
import { sql } from 'drizzle-orm'
import { errorCode } from '../log-error'
import { type Database, selectRows } from './client'

// Events by UTC day on PostgreSQL (migration 0021): one table per day, named events_YYYYMMDD, so
// retention drops a day instead of deleting its rows. On the embedded database events stays one
// plain table, and both functions here find nothing to do.

const DAY_MS = 86_400_000
/** Day tables are made this many days ahead, so a missed pass or two never leaves a day without one. */
const DAYS_AHEAD = 7
/** PostgreSQL's SQLSTATE for a row outside every partition (and for any failed CHECK). */
const CHECK_VIOLATION = '23514'
/** PostgreSQL's SQLSTATE for a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03'
/** The table an upgrade left the rows stored before partitioning in (dropped once retention empties it). */
const BEFORE_PARTITIONING = 'events_before_partitioning'
/** Snapshots handed to one deletion statement. */
const SNAPSHOT_CHUNK = 5_000

function utcDay(time: number): string {
  return new Date(time - (time % DAY_MS)).toISOString().slice(0, 10)
}

/** PostgreSQL refused a row for want of its day's table ("no partition of relation … found for row"). */
export function isMissingDayTable(error: unknown): boolean {
  if (errorCode(error) !== CHECK_VIOLATION) return false
  for (let current = error; current instanceof Error; current = current.cause)
    if (current.message.includes('no partition of relation')) return true
  return false
}

/** Makes the day tables from yesterday to a week ahead that are missing. */
export function ensureComingEventPartitions(db: Database, now = Date.now()): Promise<number> {
  return ensureEventPartitions(db, new Date(now - DAY_MS), new Date(now + DAYS_AHEAD * DAY_MS))
}

/** Makes the missing day tables from `from`'s UTC day to `to`'s; returns how many were made. */
export async function ensureEventPartitions(db: Database, from: Date, to: Date): Promise<number> {
  const [made] = await selectRows(
    db,
    {
      made: sql<number>`tessera_event_partitions(${utcDay(from.getTime())}::date, ${utcDay(to.getTime())}::date)`,
    },
    (select) => sql`select ${select}`,
  )
  return made?.made ?? 0
}

/**
 * Drops every day table that ends at or before `before`, each in a transaction of its own (the
 * parent's lock is held only for the drop), then the snapshots only that day referenced. A drop
 * whose lock is not granted within seconds waits for the next pass. Returns the rows dropped.
 */
export async function dropEventPartitionsBefore(db: Database, before: Date): Promise<number> {
  const days = await selectRows(
    db,
    { name: sql<string>`c.relname::text` },
    (select) => sql`select ${select} from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'events'::regclass and c.relname ~ '^events_[0-9]{8}$'
          and (to_date(substr(c.relname, 8), 'YYYYMMDD') + 1)::timestamp at time zone 'UTC' <= ${before.toISOString()}::timestamptz
        order by 1`,
  )
  let dropped = 0
  for (const { name } of days) {
    const table = sql.identifier(name)
    const [held] = await selectRows(
      db,
      { rows: sql<number>`count(*)::int`, snapshots: sql<string[] | null>`array_agg(distinct snapshot)` },
      (select) => sql`select ${select} from ${table}`,
    )
    if (!(await dropTable(db, name))) continue
    dropped += held?.rows ?? 0
    const snapshots = held?.snapshots ?? []
    for (let start = 0; start < snapshots.length; start += SNAPSHOT_CHUNK) {
      const chunk = snapshots.slice(start, start + SNAPSHOT_CHUNK)
      await db.execute(sql`select tessera_delete_unused_snapshots(${sql.param(chunk)}::uuid[])`)
    }
  }
  return dropped
}

/** Drops the table of rows stored before partitioning once retention has emptied it. */
export async function dropEmptiedStoredEvents(db: Database): Promise<void> {
  const [legacy] = await selectRows(
    db,
    { present: sql<boolean>`to_regclass(${BEFORE_PARTITIONING}) is not null` },
    (select) => sql`select ${select}`,
  )
  if (legacy?.present) {
    const [row] = await selectRows(
      db,
      { empty: sql<boolean>`not exists (select 1 from ${sql.identifier(BEFORE_PARTITIONING)})` },
      (select) => sql`select ${select}`,
    )
    if (row?.empty) await dropTable(db, BEFORE_PARTITIONING)
  }
}

async function dropTable(db: Database, name: string): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '5s'`)
      await tx.execute(sql`drop table ${sql.identifier(name)}`)
    })
    return true
  } catch (error) {
    if (errorCode(error) === LOCK_NOT_AVAILABLE) return false
    throw error
  }
}

/** Keeps day tables made from yesterday to a week ahead, every hour (each start makes them too, client.ts). */
export function runEventPartitioning(db: Database, failed: (error: unknown) => void) {
  const ensure = () => void ensureComingEventPartitions(db).catch(failed)
  const timer = setInterval(ensure, 3_600_000)
  timer.unref()
  return () => clearInterval(timer)
}
