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

/** Compacts every minute; a failed pass is retried at the next. */
export function runSketchCompaction(db: Database, failed: (error: unknown) => void) {
  const timer = setInterval(() => void compactVisitorSketches(db).catch(failed), 60_000)
  timer.unref()
  return () => clearInterval(timer)
}
