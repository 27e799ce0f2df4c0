import 'server-only'
import { sql } from 'drizzle-orm'
import { log } from '../log'
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
/** The table an upgrade left the rows stored before partitioning in (dropped once retention empties it). */
const BEFORE_PARTITIONING = 'events_before_partitioning'

/** The start (midnight UTC) of the UTC day `time` is in. */
export function startOfUtcDay(time: number): Date {
  return new Date(time - (time % DAY_MS))
}

function utcDay(time: number): string {
  return startOfUtcDay(time).toISOString().slice(0, 10)
}

/**
 * PostgreSQL refused a row of events for want of its day's table ("no partition of relation …
 * found for row"): a check violation that names the table but no constraint (read from the error's
 * fields, not its words, which the server's language decides).
 */
export function isMissingDayTable(error: unknown): boolean {
  if (errorCode(error) !== CHECK_VIOLATION) return false
  for (let current = error; typeof current === 'object' && current !== null; ) {
    if ('table' in current && current.table === 'events')
      return !('constraint' in current && current.constraint)
    current = 'cause' in current ? current.cause : undefined
  }
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

/** What removing expired days did: the events they held, and where the time went (ms). */
export interface DroppedDays {
  /** As the days' tables' statistics estimate them (autovacuum analyses a day as it fills: within about a tenth). */
  events: number
  /** Detaching the days: each waits for the transactions in flight that read or write events. */
  detaching: number
  /**
   * Dropping the detached tables: the database frees their files, which grows with their size, and far
   * more on a volume that trims every freed block on the device as it frees it (online discard).
   * Finding the days and reading their row counts is the rest of the step.
   */
  dropping: number
}

/**
 * Removes every day table that ends at or before `before`. Each day is detached concurrently (reads
 * and writes of events go on meanwhile), then dropped: a day left detached by a crash, or by another
 * server's pass, is finished by the next pass. A day that fails is logged and left to the next pass;
 * the others still go. The snapshots the days referenced are retention's next step
 * (deleteExpiredSnapshots), by their last day.
 */
export async function dropEventPartitionsBefore(db: Database, before: Date): Promise<DroppedDays> {
  const days = await selectRows(
    db,
    {
      name: sql<string>`c.relname::text`,
      attached: sql<boolean>`i.inhrelid is not null`,
      pending: sql<boolean>`coalesce(i.inhdetachpending, false)`,
    },
    (select) => sql`select ${select} from pg_class c left join pg_inherits i on i.inhrelid = c.oid
        where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace and c.relname ~ '^events_[0-9]{8}$'
          and (i.inhrelid is null or i.inhparent = 'events'::regclass)
          and (to_date(substr(c.relname, 8), 'YYYYMMDD') + 1)::timestamp at time zone 'UTC' <= ${before.toISOString()}::timestamptz
        order by 1`,
  )
  const dropped: DroppedDays = { events: 0, detaching: 0, dropping: 0 }
  for (const day of days) {
    try {
      await removeDay(db, day, dropped)
    } catch (error) {
      log.warn(
        { err: error, table: day.name },
        "removing an expired day's events failed; the next pass tries again",
      )
    }
  }
  return dropped
}

async function removeDay(
  db: Database,
  { name, attached, pending }: { name: string; attached: boolean; pending: boolean },
  dropped: DroppedDays,
): Promise<void> {
  const table = sql.identifier(name)
  const started = performance.now()
  if (attached)
    await db.execute(
      sql`alter table events detach partition ${table} ${pending ? sql`finalize` : sql`concurrently`}`,
    )
  // Counted now: a drop that fails leaves the day detached for the next pass, its wait spent all the same.
  dropped.detaching += performance.now() - started
  // Its rows as the statistics estimate them (autovacuum analyses a day's table as it fills, so
  // within about a tenth), else counted: counting a full day would read all of it to report a number.
  const [held] = await selectRows(
    db,
    {
      rows: sql<number>`case when c.reltuples >= 0 then c.reltuples::bigint::int
        else (select count(*)::int from ${table}) end`,
    },
    (select) => sql`select ${select} from pg_class c where c.oid = ${name}::regclass`,
  )
  const counted = performance.now()
  await db.execute(sql`drop table ${table}`)
  dropped.events += held?.rows ?? 0
  dropped.dropping += performance.now() - counted
}

/** Detaches and drops the table of rows stored before partitioning once retention has emptied it. */
export async function dropEmptiedStoredEvents(db: Database): Promise<void> {
  const [stored] = await selectRows(
    db,
    {
      present: sql<boolean>`to_regclass(${BEFORE_PARTITIONING}) is not null`,
      pending: sql<boolean>`coalesce((select inhdetachpending from pg_inherits where inhrelid = to_regclass(${BEFORE_PARTITIONING})), false)`,
    },
    (select) => sql`select ${select}`,
  )
  if (!stored?.present) return
  const table = sql.identifier(BEFORE_PARTITIONING)
  const [row] = await selectRows(
    db,
    { empty: sql<boolean>`not exists (select 1 from ${table})` },
    (select) => sql`select ${select}`,
  )
  if (!row?.empty) return
  try {
    await db.execute(
      sql`alter table events detach partition ${table} ${stored.pending ? sql`finalize` : sql`concurrently`}`,
    )
    await db.execute(sql`drop table ${table}`)
  } catch (error) {
    log.warn(
      { err: error, table: BEFORE_PARTITIONING },
      'removing the emptied stored events failed; the next pass tries again',
    )
  }
}

/** A past day's table whose indexes are packed says so itself: its fillfactor set, to the heap's default. */
const PACKED = 'fillfactor=100'

/** The advisory lock a server holds while it packs: another server's pass meanwhile does nothing. */
const PACKING_LOCK = 0x7e55_0028

/**
 * Rebuilds the indexes of the newest wholly past day not packed yet full (fillfactor 100), and
 * returns its table's name, or null when every past day is packed, another server is packing, or
 * the database is the embedded one (one plain table). Identify writes only today's table; built row
 * by row, an index whose keys arrive in random order (visitor, browser, address) is left about 70%
 * full, and once its day is past it only meets the odd update (a re-key, a label) or deletion, so
 * rebuilt full it stays so: about a tenth to a quarter of an event's index bytes (bench:scale).
 * Every step takes locks that reads and writes do not wait for (REINDEX and DROP INDEX
 * CONCURRENTLY, reloptions), on a connection of its own holding PACKING_LOCK, so no two servers
 * rebuild at once and an invalid `_ccnew` or `_ccold` index found under the lock is a crash's
 * leftover, dropped first.
 */
export async function packPastDayIndexes(db: Database, now = Date.now()): Promise<string | null> {
  const { Pool } = await import('pg')
  const pool: unknown = (db as unknown as { $client?: unknown }).$client
  if (!(pool instanceof Pool)) return null
  const connection = await pool.connect()
  try {
    const locked = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      PACKING_LOCK,
    ])
    if (!locked.rows[0]?.locked) return null
    try {
      const { drizzle } = await import('drizzle-orm/node-postgres')
      return await packNewestPastDay(drizzle({ client: connection }) as unknown as Database, now)
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [PACKING_LOCK])
    }
  } finally {
    connection.release()
  }
}

async function packNewestPastDay(db: Database, now: number): Promise<string | null> {
  const [day] = await selectRows(
    db,
    { name: sql<string>`c.relname::text` },
    (select) => sql`select ${select} from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'events'::regclass and not i.inhdetachpending and c.relname ~ '^events_[0-9]{8}$'
          and to_date(substr(c.relname, 8), 'YYYYMMDD') < ${utcDay(now)}::date
          and not coalesce(c.reloptions, '{}') @> array[${PACKED}]
        order by c.relname desc limit 1`,
  )
  if (!day) return null
  const indexes = await selectRows(
    db,
    { name: sql<string>`c.relname::text`, valid: sql<boolean>`x.indisvalid` },
    (select) => sql`select ${select} from pg_index x join pg_class c on c.oid = x.indexrelid
        where x.indrelid = ${day.name}::regclass order by 1`,
  )
  for (const index of indexes) {
    const name = sql.identifier(index.name)
    if (!index.valid && /_cc(new|old)[0-9]*$/.test(index.name))
      await db.execute(sql`drop index concurrently ${name}`)
    else await db.execute(sql`alter index ${name} set (fillfactor = 100)`)
  }
  const table = sql.identifier(day.name)
  await db.execute(sql`reindex table concurrently ${table}`)
  await db.execute(sql`alter table ${table} set (${sql.raw(PACKED)})`)
  return day.name
}

/**
 * Every hour: keeps day tables made from yesterday to a week ahead (each start makes them too,
 * client.ts), and packs one past day's indexes (packPastDayIndexes; a backlog goes a day an hour).
 * Each has its own guard: a rebuild that waits on a long reader never holds back the coming days.
 */
export function runEventPartitioning(db: Database, failed: (error: unknown) => void) {
  let packing = false
  const pack = async () => {
    if (packing) return
    packing = true
    try {
      const started = performance.now()
      const packed = await packPastDayIndexes(db)
      if (packed)
        log.info(
          { table: packed, ms: Math.round(performance.now() - started) },
          "packed a past day's indexes",
        )
    } finally {
      packing = false
    }
  }
  const timer = setInterval(() => {
    void ensureComingEventPartitions(db).catch(failed)
    void pack().catch(failed)
  }, 3_600_000)
  timer.unref()
  return () => clearInterval(timer)
}
