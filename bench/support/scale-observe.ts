// What the database did beside bench:scale's identify load in one window: the seconds in which an
// autovacuum worker was cleaning or analysing a table (sampled once a second), and the visitors
// stored at the window's start and end. A load that slows after a retention pass may be meeting the
// clean-up of the rows the pass deleted, or its own new devices growing the population: these tell
// the two apart. Also the file system under the database: dropping a day's table frees its files,
// and a file system mounted with online discard trims every freed block on the device as it goes.
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../../src/server/db/client'

export interface Observed {
  /** Samples taken, one a second. */
  samples: number
  /** Samples in which at least one autovacuum worker was busy. */
  vacuuming: number
  /** Samples per table an autovacuum worker was busy with. */
  tables: Record<string, number>
  /** Visitors stored at the window's start and at its end. */
  visitors: [number, number]
}

async function storedVisitors(db: Database): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from visitors`)
  return row?.count ?? 0
}

/** The table a worker's activity names ("autovacuum: VACUUM ANALYZE public.visitors" → "visitors"). */
export function vacuumedTable(activity: string): string {
  return activity
    .replace(/^autovacuum:\s*(VACUUM ANALYZE|VACUUM|ANALYZE)\s+/, '')
    .replace(/\s*\(to prevent wraparound\)$/, '')
    .replace(/^public\./, '')
}

/** Starts observing; the function returned stops and gives what was seen. */
export function observeDatabase(db: Database): () => Promise<Observed> {
  let stopped = false
  const seen: Observed = { samples: 0, vacuuming: 0, tables: {}, visitors: [0, 0] }
  const start = storedVisitors(db).catch(() => 0)
  // A failed sample ends the sampling (the database went away: the bench is failing anyway), and the
  // pause never keeps the process alive, so a window that throws before stopping it cannot hang the bench.
  const sampling = (async () => {
    while (!stopped) {
      const workers = await queryRows<{ activity: string }>(
        db,
        sql`select query as activity from pg_stat_activity where backend_type = 'autovacuum worker' and query <> ''`,
      ).catch(() => undefined)
      if (!workers) return
      seen.samples++
      if (workers.length > 0) seen.vacuuming++
      for (const { activity } of workers) {
        const table = vacuumedTable(activity)
        seen.tables[table] = (seen.tables[table] ?? 0) + 1
      }
      await sleep(1_000, undefined, { ref: false })
    }
  })()
  return async () => {
    stopped = true
    await sampling
    seen.visitors = [await start, await storedVisitors(db)]
    return seen
  }
}

/** "autovacuum busy in 65 of 724 s (visitor_keys 24, visitors 20), visitors stored 221k → 38.5k". */
export function describeObserved(observed: Observed, count: (value: number) => string): string {
  const tables = Object.entries(observed.tables)
    .sort(([, a], [, b]) => b - a)
    .map(([table, samples]) => `${table} ${samples}`)
  return `autovacuum busy in ${observed.vacuuming} of ${observed.samples} s${tables.length > 0 ? ` (${tables.join(', ')})` : ''}, visitors stored ${count(observed.visitors[0])} → ${count(observed.visitors[1])}`
}

/** The file system under a directory, and how long it takes to free what was written to it. */
export interface FileSystemSeen {
  mountPoint: string
  type: string
  /** Its discard mount option (`discard`, `discard=async`), when mounted with online discard. */
  discard?: string
  /** Seconds to remove 1 GB of written, synced files (measured on a smaller file, scaled). */
  freeSecondsPerGb: number
}

const FREE_TEST_MB = 256

/**
 * The mount holding `directory` (the longest mount point above it) and the time to free a written
 * file there: `unlink` alone, as PostgreSQL's drop frees a table's files (it syncs no directory after),
 * so a volume that trims in the background shows little here, as it costs a drop little. Undefined,
 * with the reason logged, where it cannot be measured (no /proc, a directory not writable, a full disk).
 */
export function measureFileSystem(
  directory: string,
  log: (line: string) => void,
): FileSystemSeen | undefined {
  let file: string | undefined
  try {
    const real = realpathSync(directory)
    const mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .flatMap((line) => {
        const [, mountPoint, type, options] = line.split(' ')
        if (!mountPoint || !type || !options) return []
        // /proc/self/mounts writes a space, tab, newline or backslash in a path as an octal escape.
        const point = mountPoint.replace(/\\([0-7]{3})/g, (_, octal: string) =>
          String.fromCharCode(Number.parseInt(octal, 8)),
        )
        const inside = point === '/' || real === point || real.startsWith(`${point}/`)
        const discard = options.split(',').find((option) => /^discard(=|$)/.test(option))
        return inside ? [{ mountPoint: point, type, ...(discard && { discard }) }] : []
      })
    // A later mount over the same point hides the earlier one.
    const mount = mounts.reduce((deepest, candidate) =>
      candidate.mountPoint.length >= deepest.mountPoint.length ? candidate : deepest,
    )
    file = path.join(real, `.free-test-${process.pid}`)
    const chunk = Buffer.alloc(8 * 1024 * 1024, 1)
    const fd = openSync(file, 'w')
    try {
      for (let written = 0; written < FREE_TEST_MB * 1024 * 1024; ) written += writeSync(fd, chunk)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    const started = performance.now()
    unlinkSync(file)
    file = undefined
    const seconds = (performance.now() - started) / 1000
    return { ...mount, freeSecondsPerGb: (seconds * 1024) / FREE_TEST_MB }
  } catch (error) {
    log(`  the data directory's file system was not measured: ${(error as Error).message}`)
    return undefined
  } finally {
    if (file) rmSync(file, { force: true })
  }
}

/** "ext4 at /, mounted with online discard (discard): 1 GB of written files is freed in 0.58 s". */
export function describeFileSystem(seen: FileSystemSeen): string {
  return `${seen.type} at ${seen.mountPoint}, ${seen.discard ? `mounted with online discard (${seen.discard}: freed blocks are trimmed on the device as they are freed)` : 'mounted without online discard'}: 1 GB of written files is freed in ${seen.freeSecondsPerGb.toFixed(2)} s`
}
