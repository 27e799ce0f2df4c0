import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import { type Database, isDeadlock, selectRows } from '../db/client'
import { dropEmptiedStoredEvents, dropEventPartitionsBefore, startOfUtcDay } from '../db/event-partitions'
import { deleteExpiredSnapshots } from '../identification/component-snapshots'
import { takeOffStatistics } from '../identification/take-off-statistics'
import { ACCOUNT_LIMIT_WINDOW_HOURS } from '../signup/device-mark'
import { purgeDeletedWebhooks } from '../webhooks/delete-webhook'
import { pace } from './pace'

const DAY_MS = 86_400_000

export interface Purged {
  /** On PostgreSQL a dropped day counts as its table's statistics estimate it (within about a tenth). */
  events: number
  visitors: number
  decisions: number
  deliveries: number
  sessions: number
  rateLimits: number
  /** Component snapshots no stored event references any more (on the embedded database, most go with their events). */
  snapshots: number
  /**
   * How long each step took (ms): dropping the expired days' event tables, the statement deleting
   * the other expired rows (with an emptied table of events stored before days), the expired
   * visitors and the snapshots (their pauses included: DELETION_SHARE). Of the days' time, detaching
   * their tables and dropping them (PostgreSQL; zero on the embedded database, which has no day tables).
   */
  took: {
    days: number
    detaching: number
    dropping: number
    rows: number
    visitors: number
    snapshots: number
  }
}

/**
 * The share of a pass's time that deleting expired visitors, then snapshots, may keep the database
 * busy: each chunk is followed by a pause nine times as long. A visitor costs a few dozen row
 * changes (its keys, its share of the statistics), about 0.4 ms of the database's time, so a day of
 * a campaign's 100 k devices takes 7 minutes paced in bench:scale, within the hour before the next
 * pass (a campaign of a million devices would run past it; the hour's pass then skips). In quick runs
 * a quarter raised identify p99 under load on 2 CPUs by a quarter and a tenth by 7%; at a day of 500 k
 * events a tenth by 9–13%, at 1 M by −14% and +13% in two runs (30–50% before migration 0044 made a
 * chunk cheaper; docs/benchmarks.md). The campaign's snapshots (one per device) take a minute more, paced alike.
 */
const DELETION_SHARE = 0.1

/**
 * Deletes everything with personal data past the retention period. Identification events go by
 * their UTC day (on PostgreSQL whole days' tables are dropped first, event-partitions.ts); then one
 * statement deletes the rest: sign-up decisions, webhook deliveries (a delivery is finished or failed
 * within about a day, so any state), used challenges and the console's rollups of those days. It
 * clears account device marks and creating browsers past the account rule's window, and drops
 * expired operator sessions and rate-limit counters whatever the retention period. Then visitors not seen within the period go, a chunk at a time (with their keys,
 * their share of the value statistics and their accounts' link), and the component snapshots no
 * stored event can reference. Returns what was removed.
 */
export async function purgeExpiredData({
  db,
  days,
  now = new Date(),
}: {
  db: Database
  days: number
  now?: Date
}): Promise<Purged> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString()
  // Events go by the UTC day, as PostgreSQL stores them (event-partitions.ts): a day's table is
  // dropped once the whole day is past the period, so an event is kept at most a day longer.
  const eventCutoff = startOfUtcDay(now.getTime() - days * DAY_MS)
  let stepStart = performance.now()
  const step = () => {
    const spent = performance.now() - stepStart
    stepStart = performance.now()
    return Math.round(spent)
  }
  const droppedDays = await dropEventPartitionsBefore(db, eventCutoff)
  const daysTook = step()
  const markCutoff = new Date(now.getTime() - ACCOUNT_LIMIT_WINDOW_HOURS * 3_600_000).toISOString()
  const moment = now.toISOString()
  const cutoffDay = sql`date_trunc('day', ${cutoff}::timestamptz at time zone 'UTC') at time zone 'UTC'`
  const [result] = await selectRows(
    db,
    {
      events: sql<number>`(select count(*) from old_events)::int`,
      decisions: sql<number>`(select count(*) from decisions)::int`,
      deliveries: sql<number>`(select count(*) from deliveries)::int`,
      sessions: sql<number>`(select count(*) from sessions)::int`,
      rateLimits: sql<number>`(select count(*) from limits)::int`,
    } satisfies Record<Exclude<keyof Purged, 'visitors' | 'snapshots' | 'took'>, SQL<number>>,
    (
      select,
    ) => sql`with old_events as (delete from events where created_at < ${eventCutoff.toISOString()} returning 1),
        accounts as (
          update accounts set device_mark = null, browser_id = null
          where (device_mark is not null or browser_id is not null) and created_at < ${markCutoff}),
        decisions as (delete from signup_decisions where created_at < ${cutoff} returning 1),
        deliveries as (delete from webhook_deliveries where created_at < ${cutoff} returning 1),
        challenges as (delete from used_challenges where used_at < ${cutoff}),
        -- Mailed sign-up codes are of no use once expired: their hashes go within the hour.
        codes as (delete from email_codes where expires_at < ${moment}),
        -- The console's rollups of days wholly past the cutoff (hours older than two days are kept by the day).
        rollups as (delete from event_rollups where hour < ${cutoffDay}),
        sketches as (delete from visitor_sketches where hour < ${cutoffDay}),
        sessions as (delete from operator_sessions where expires_at < ${moment} returning 1),
        limits as (delete from rate_limits where expire < ${moment} returning 1)
        select ${select}`,
  )
  await dropEmptiedStoredEvents(db)
  const rowsTook = step()
  const visitors = await deleteExpiredVisitors(db, cutoff, eventCutoff)
  const visitorsTook = step()
  const snapshots = await deleteExpiredSnapshots(db, eventCutoff, pace(DELETION_SHARE))
  const took = {
    days: daysTook,
    detaching: Math.round(droppedDays.detaching),
    dropping: Math.round(droppedDays.dropping),
    rows: rowsTook,
    visitors: visitorsTook,
    snapshots: step(),
  }
  // Webhooks deleted longer ago than can be undone (deleted ones are purged at each deletion too).
  await purgeDeletedWebhooks(db)
  const removed = result ?? {
    events: 0,
    decisions: 0,
    deliveries: 0,
    sessions: 0,
    rateLimits: 0,
  }
  return { ...removed, events: removed.events + droppedDays.events, visitors, snapshots, took }
}

/** Expired visitors one chunk deletes: it holds their statistics rows, which identify updates too, until it commits. */
const VISITOR_CHUNK = 200

/**
 * Deletes the visitors not seen since `cutoff` (their keys by cascade) with their share of the value
 * statistics and their events still kept (those of the day `cutoff` is in: older days are gone), and
 * unlinks their accounts; returns how many went. A chunk at a time, the longest unseen first (by
 * `visitors_last_seen`, so the pass reads only what it deletes), each a short transaction of its own:
 * the statistics rows of common values are the ones every identification updates, and one long
 * statement would hold them locked. The pass ends with a chunk that found fewer than VISITOR_CHUNK,
 * or could lock none of them (those go with the next pass). Paced: each chunk is followed by a
 * pause, so the database spends DELETION_SHARE of the time on them.
 */
async function deleteExpiredVisitors(db: Database, cutoff: string, eventCutoff: Date): Promise<number> {
  const paused = pace(DELETION_SHARE)
  let deleted = 0
  for (;;) {
    const chunk = await retriedOnDeadlock(() => deleteExpiredChunk(db, cutoff, eventCutoff))
    deleted += chunk.gone
    if (!chunk.more) return deleted
    await paused()
  }
}

/**
 * One chunk of expired visitors, in one transaction, taking its locks in the order an
 * identification's batch takes them, so neither waits on the other while holding what the other
 * needs: the visitors first (one a batch holds is left: being seen again, SKIP LOCKED), then their
 * events of the cutoff's day (their snapshots left to the snapshot step), then their
 * statistics rows, in identify's order (takeOffStatistics), last, so the rows of common values are held
 * briefly. A visitor seen again meanwhile is left (its date is checked again as it is locked) and no
 * later chunk chooses it. Returns how many went, and whether it found a whole chunk (more may be left).
 */
async function deleteExpiredChunk(
  db: Database,
  cutoff: string,
  eventCutoff: Date,
): Promise<{ gone: number; more: boolean }> {
  return db.transaction(async (tx) => {
    const expired = await selectRows(
      tx,
      { id: sql<string>`v.id`, chosen: sql<number>`(select count(*) from chosen)::int` },
      (select) => sql`with chosen as materialized (
          select id from visitors where last_seen_at < ${cutoff} order by last_seen_at limit ${VISITOR_CHUNK})
        select ${select} from visitors v
        where v.id in (select id from chosen) and v.last_seen_at < ${cutoff}
        for update of v skip locked`,
    )
    if (expired.length === 0) return { gone: 0, more: false }
    const ids = sql.param(expired.map(({ id }) => id))
    // Their events are all older than the cutoff; only the cutoff's own day can hold any. Their
    // snapshots are left to the pass's snapshot step, which deletes them once no stored event can
    // reference them, with the rest of that day (migration 0044): the delete trigger's look-up
    // would read every day's table for each chunk.
    await tx.execute(sql`select set_config('tessera.snapshots_by_day', 'on', true)`)
    await tx.execute(sql`delete from events where visitor_id = any(${ids}::text[])
      and created_at >= ${eventCutoff.toISOString()} and created_at < ${cutoff}`)
    // Their values' counts, then their statistics rows in a statement of its own just before the
    // commit: the rows of common values are the ones every new visitor's batch waits on.
    const counted = await selectRows(
      tx,
      {
        component: sql<string>`p.component`,
        digest: sql<string>`p.digest`,
        n: sql<number>`(count(*) filter (where old_visitors.counted))::int`,
        all: sql<number>`count(*)::int`,
      },
      (select) => sql`with old_visitors as (
          delete from visitors where id = any(${ids}::text[]) returning id, profile, counted),
        accounts as (update accounts set visitor_id = null where visitor_id = any(${ids}::text[]))
        select ${select} from old_visitors, jsonb_each_text(old_visitors.profile) as p(component, digest)
        group by p.component, p.digest`,
    )
    if (counted.length > 0)
      await tx.execute(sql`with counted as (
          select * from unnest(${sql.param(counted.map((row) => row.component))}::text[],
            ${sql.param(counted.map((row) => row.digest))}::text[], ${sql.param(counted.map((row) => row.n))}::int[],
            ${sql.param(counted.map((row) => row.all))}::int[])
            as counted(component, digest, n, n_all)),
        ${takeOffStatistics(sql`counted`)}
        select 1`)
    // Locked by this transaction, every one of them went. Those skipped (a batch held them: being
    // seen again) are no longer expired once it commits, or are chosen again by the next chunk.
    return { gone: expired.length, more: (expired[0]?.chosen ?? 0) >= VISITOR_CHUNK }
  })
}

/** Runs a chunk again when PostgreSQL broke a deadlock by cancelling it (it rolled back whole). */
async function retriedOnDeadlock<Result>(run: () => Promise<Result>): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 3) throw error
    }
  }
}

/**
 * Purges once at start, then every hour, one pass at a time (a long one is not joined by the next);
 * a pass that fails is reported and the next one tries again.
 */
export function runRetention(
  db: Database,
  days: number,
  onPurge: (removed: Purged) => void,
  failed: (error: unknown) => void,
) {
  let running = false
  const purge = () => {
    if (running) return
    running = true
    purgeExpiredData({ db, days })
      .then(onPurge, failed)
      .finally(() => {
        running = false
      })
  }
  purge()
  const timer = setInterval(purge, 3_600_000)
  timer.unref()
  return () => clearInterval(timer)
}
