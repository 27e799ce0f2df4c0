import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { VisitorSketch } from './visitor-sketch'

/** Hours compacted per pass: a bounded statement, however far behind. */
const HOURS_PER_PASS = 200

/**
 * Merges each hour's visitor sketches (one per stored batch) into one, so the overview reads one
 * per site and hour. Each hour's in one statement: the rows it deleted are the rows it merged, so
 * a batch stored meanwhile keeps its own row, and two servers compacting at once lose nothing.
 * Returns how many hours were merged.
 */
export async function compactVisitorSketches(db: Database): Promise<number> {
  const crowded = await selectRows(
    db,
    { hour: sql<string>`hour`, siteKey: sql<string>`site_key` },
    // Batches add to the hours they happen in: the last two days' are all that crowd (an index range).
    (select) => sql`select ${select} from visitor_sketches where hour > now() - interval '2 days'
      group by hour, site_key having count(*) > 1 order by hour limit ${HOURS_PER_PASS}`,
  )
  for (const { hour, siteKey } of crowded) {
    await db.transaction(async (tx) => {
      const taken = await selectRows(
        tx,
        { sketch: sql<Uint8Array>`sketch` },
        (select) =>
          sql`delete from visitor_sketches where hour = ${hour} and site_key = ${siteKey} returning ${select}`,
      )
      if (taken.length === 0) return
      const merged = taken.reduce(
        (sketch, row) => sketch.merge(VisitorSketch.decode(row.sketch)),
        new VisitorSketch(),
      )
      await tx.execute(
        sql`insert into visitor_sketches (hour, site_key, sketch) values (${hour}, ${siteKey}, ${merged.encode()})`,
      )
    })
  }
  return crowded.length
}

/** The UTC day of an hour column, as a timestamp. */
const dayOf = sql`date_trunc('day', hour at time zone 'UTC') at time zone 'UTC'`
/** Hours before the UTC day two days ago are kept by the day: only 24-hour overviews read hours. */
const folded = sql`date_trunc('day', (now() - interval '2 days') at time zone 'UTC') at time zone 'UTC'`
/** Days folded per pass. */
const DAYS_PER_PASS = 100

/**
 * Folds the rollups of hours older than two days into their UTC day (shard 0), counts and visitor
 * sketches alike, so a 30-day overview reads a day's rows, not 24 hours' times every writer's
 * shard. Counts move in one statement (the rows deleted are the rows added); each site's day of
 * sketches in one transaction. Returns how many rows and sketches were folded.
 */
export async function foldRollupsIntoDays(db: Database): Promise<{ rows: number; sketches: number }> {
  const [moved] = await selectRows(
    db,
    { rows: sql<number>`(select count(*) from moved)::int` },
    (select) => sql`with moved as (
        delete from event_rollups where hour < ${folded} and (hour <> ${dayOf} or shard <> 0)
        returning hour, site_key, network_type, country, identifications, returned, bots, allow, challenge, deny),
      added as (
        insert into event_rollups as r (hour, site_key, network_type, country, shard,
          identifications, returned, bots, allow, challenge, deny)
        select ${dayOf}, site_key, network_type, country, 0, sum(identifications), sum(returned), sum(bots),
          sum(allow), sum(challenge), sum(deny)
        from moved group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict (hour, site_key, network_type, country, shard) do update set
          identifications = r.identifications + excluded.identifications, returned = r.returned + excluded.returned,
          bots = r.bots + excluded.bots, allow = r.allow + excluded.allow,
          challenge = r.challenge + excluded.challenge, deny = r.deny + excluded.deny)
      select ${select}`,
  )
  const days = await selectRows(
    db,
    { day: sql<string>`day`, siteKey: sql<string>`site_key` },
    (select) => sql`select distinct ${select} from (
        select ${dayOf} as day, site_key from visitor_sketches where hour < ${folded}
        group by 1, 2 having count(*) > 1 or min(hour) <> ${dayOf}) as unfolded
      order by day limit ${DAYS_PER_PASS}`,
  )
  for (const { day, siteKey } of days) {
    await db.transaction(async (tx) => {
      const taken = await selectRows(
        tx,
        { sketch: sql<Uint8Array>`sketch` },
        (select) => sql`delete from visitor_sketches where site_key = ${siteKey}
          and hour >= ${day}::timestamptz and hour < ${day}::timestamptz + interval '1 day' returning ${select}`,
      )
      if (taken.length === 0) return
      const merged = taken.reduce(
        (sketch, row) => sketch.merge(VisitorSketch.decode(row.sketch)),
        new VisitorSketch(),
      )
      await tx.execute(
        sql`insert into visitor_sketches (hour, site_key, sketch) values (${day}, ${siteKey}, ${merged.encode()})`,
      )
    })
  }
  return { rows: moved?.rows ?? 0, sketches: days.length }
}

/** Compacts every minute and folds old hours into days; a failed pass is retried at the next. */
export function runSketchCompaction(db: Database, failed: (error: unknown) => void) {
  const pass = async () => {
    await compactVisitorSketches(db)
    await foldRollupsIntoDays(db)
  }
  const timer = setInterval(() => void pass().catch(failed), 60_000)
  timer.unref()
  return () => clearInterval(timer)
}
