// npm run bench:scale — Tessera with 90 days of a busy site's traffic on PostgreSQL (issue 28).
// Starts a throwaway PostgreSQL (as bench:durability does), lets the app migrate it, bulk-loads
// synthetic traffic (bench/support/scale-load.ts: Zipf-like returning visitors, bots, sign-ups, four
// sites, 5 % of the events past the 90-day retention), then measures over HTTP, against the
// production build: each console answer and the Server API and /v4 searches (p50, p95); identify
// throughput on one and on two app servers over that database, against bench:identify's floor;
// the console's CSV export (first byte, rows a second, the server's memory while it streams); a
// retention pass, and identify latency while it runs (against the load before it, and as long
// again after it); packing a past day's indexes, and identify latency while it runs; bytes per event
// on disk.
// BENCH_ENGINE=pglite: the same on the embedded database (1 M events by default), loaded in the first
// app server's data directory. What needs a second process on the database is left out there: the
// floor, two app servers, and identify load while retention runs (the bench runs its passes after
// stopping the server); so are day tables and their packing, which are PostgreSQL's.
// BENCH_QUICK=1: 100 k events. BENCH_EVENTS, BENCH_VISITORS (default: a tenth of the events),
// BENCH_SECONDS (per identify measurement), BENCH_PORT (three ports from it), BENCH_POSTGRES_PORT;
// BENCH_KEEP=1 leaves the loaded PostgreSQL running at the end (the embedded database's directory in
// place), for EXPLAIN and the like. BENCH_SPIKE=<events>: that many more on the oldest expired day, of
// BENCH_SPIKE_VISITORS devices (default a fifth) never seen again, a campaign that came and went:
// the first retention pass removes that day whole, its visitors and all. BENCH_EXPORT_ALL=0: the two
// exports of every event read the last 7 days instead (at 10 M events each whole-table export takes
// about 17 minutes). BENCH_PAUSED_ROUNDS: rounds of the look-ups after the console sat idle (4, quick 1).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { EventPage } from '../src/contracts/server-api'
import { compactVisitorSketches, foldRollupsIntoDays } from '../src/server/console/compact-sketches'
import { type Database, type DatabaseHandle, queryRows } from '../src/server/db/client'
import { packPastDayIndexes } from '../src/server/db/event-partitions'
import { networkOf } from '../src/server/identification/network-of'
import { purgeExpiredData } from '../src/server/retention/purge-expired-data'
import { ensureDefaultSite } from '../src/server/sites/ensure-default-site'
import { assertProductionBuild } from '../tests/support/tessera-server'
import { signInToConsole } from './support/acknowledged-writes'
import { postmasterOf } from './support/cpu-time'
import { PAUSE_MS, scaleAnswers, timeAnswers } from './support/scale-console'
import { type ScaleEngine, startScaleDatabase } from './support/scale-engine'
import { type ExportRun, timeExport } from './support/scale-export'
import {
  driveIdentify,
  failuresOf,
  type IdentifyRun,
  identifyBodies,
  pinToCpus,
} from './support/scale-identify'
import { loadTraffic } from './support/scale-load'
import {
  type FileSystemSeen,
  measureFileSystem,
  type Observed,
  observeDatabase,
} from './support/scale-observe'
import { type PackPass, printReport, type RetentionPass, shortCount } from './support/scale-report'
import { createKey, type Defer, startAppServer, startFloor, waitQuiet } from './support/scale-servers'
import { measureStorage } from './support/scale-storage'
import { createTraffic } from './support/scale-traffic'

const quick = process.env.BENCH_QUICK === '1'
const ENGINE: ScaleEngine = process.env.BENCH_ENGINE === 'pglite' ? 'pglite' : 'postgres'
// The app servers inherit this environment: on the embedded database none may reach a PostgreSQL.
if (ENGINE === 'pglite') delete process.env.DATABASE_URL
const EVENTS = Number(
  process.env.BENCH_EVENTS ?? (quick ? 100_000 : ENGINE === 'pglite' ? 1_000_000 : 10_000_000),
)
const VISITORS = Number(process.env.BENCH_VISITORS ?? Math.max(1, Math.round(EVENTS / 10)))
const SPIKE_EVENTS = Number(process.env.BENCH_SPIKE ?? 0)
const SPIKE = {
  events: SPIKE_EVENTS,
  visitors: Number(process.env.BENCH_SPIKE_VISITORS ?? Math.max(1, Math.round(SPIKE_EVENTS / 5))),
}
const ROUNDS = quick ? 5 : 20
/** Rounds of the look-ups, each after the console sat idle (scale-console.ts); each look-up first once in four. */
const PAUSED_ROUNDS = Number(process.env.BENCH_PAUSED_ROUNDS ?? (quick ? 1 : 4))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (quick ? 5 : 12))
const PORT = Number(process.env.BENCH_PORT ?? 3461)
const POSTGRES_PORT = Number(process.env.BENCH_POSTGRES_PORT ?? 5461)
const RETENTION_DAYS = 90
/** Expired events are 91 to 100 days old (scale-load.ts): a pass keeping 99 days drops the oldest day's table alone. */
const EXPIRED_DAYS = 10
const KEEP = process.env.BENCH_KEEP === '1'
const EXPORT_ALL = process.env.BENCH_EXPORT_ALL !== '0'
const ADMIN_PASSWORD = 'scale-bench-operator-passphrase-28'
const log = (line: string) => console.log(line)

/** What to undo at the end, last first, whatever failed. */
const cleanups: (() => Promise<void> | void)[] = []
const defer: Defer = (cleanup) => {
  cleanups.push(cleanup)
}

async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup()
    } catch (error) {
      console.error(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

async function main() {
  assertProductionBuild()
  const work = mkdtempSync(path.join(tmpdir(), 'tessera-scale-'))
  // The first app server's own database directory (startTesseraServer keeps it in <dir>/db): the
  // embedded database is loaded there.
  const embeddedDir = path.join(work, 'a', 'db')
  defer(() =>
    KEEP && ENGINE === 'pglite'
      ? log(`The embedded database left in place (BENCH_KEEP=1): ${embeddedDir}`)
      : rmSync(work, { recursive: true, force: true }),
  )
  const database = await startScaleDatabase({
    engine: ENGINE,
    port: POSTGRES_PORT,
    embeddedDir,
    defer,
    keep: KEEP,
    log,
  })
  const embedded = ENGINE === 'pglite'
  // The bench's own handle: the app's migrations and default site, as its first start makes them.
  // The embedded database allows one process at a time: the bench closes it for the app server's.
  let handle: DatabaseHandle | undefined = await database.open()
  const closeHandle = async () => {
    const open = handle
    handle = undefined
    await open?.close()
  }
  defer(closeHandle)
  const db = () => {
    if (!handle) throw new Error('The bench closed its database handle (the app server holds it)')
    return handle.db
  }
  await ensureDefaultSite({ db: db(), origins: [] })

  const now = new Date()
  const traffic = createTraffic({ visitors: VISITORS, events: EVENTS, spike: SPIKE })
  const spike =
    traffic.spike.events > 0
      ? ` and a spike of ${shortCount(traffic.spike.events)} on the oldest expired day (${shortCount(traffic.spike.visitors)} visitors never seen again)`
      : ''
  log(
    `Drawing ${shortCount(EVENTS)} events of ${shortCount(traffic.visitors)} visitors${spike}, on ${embedded ? 'the embedded database' : 'PostgreSQL'}…`,
  )
  const loading = handle
  const loaded = await loadTraffic({ connect: () => database.connect(loading), traffic, now, log })
  // As on a server that ran through those days: its minute timer has merged each recent hour's
  // visitor sketches and folded older hours into their UTC day (console/compact-sketches.ts).
  const folding = performance.now()
  while ((await compactVisitorSketches(db())) > 0) {}
  for (let pass = await foldRollupsIntoDays(db()); pass.rows + pass.sketches > 0; )
    pass = await foldRollupsIntoDays(db())
  log(
    `Rollups compacted and folded into days as a running server's timer does: ${((performance.now() - folding) / 1000).toFixed(1)} s`,
  )
  // And its hourly timer has packed each past day's indexes (db/event-partitions.ts; PostgreSQL's day
  // tables only). The loader built them in bulk, 90% full; identify's writes, row by row, leave
  // those of keys that arrive in random order (visitor, browser, address) about 70% full until their
  // day is packed.
  const packing = performance.now()
  let packedDays = 0
  while (await packPastDayIndexes(db(), now.getTime())) packedDays++
  const packed = { days: packedDays, seconds: (performance.now() - packing) / 1000 }
  if (!embedded)
    log(
      `Past days' indexes packed as a running server's hourly timer does: ${packed.days} days, ${packed.seconds.toFixed(1)} s`,
    )
  const storage = await measureStorage(loading)
  const bytesPerEvent = storage.tables.reduce((sum, row) => sum + Number(row.total), 0) / loaded.events
  if (embedded) await closeHandle()

  const url = database.postgres?.url
  const server = (name: string, port: number) =>
    startAppServer({ name, url, work, port, password: ADMIN_PASSWORD, defer })
  const first = await server('a', PORT)
  if (handle) await waitQuiet(handle)
  const cookie = await signInToConsole(first.url, ADMIN_PASSWORD)
  const key = await createKey(first.url, cookie)
  // The loaded rows read back through the API's own contract, as identified events do.
  const page = EventPage.parse(
    await (
      await fetch(`${first.url}/api/v1/events?limit=100`, { headers: { authorization: `Bearer ${key}` } })
    ).json(),
  )
  log(`Server API reads the loaded events back (${page.events.length} on the first page, contract checked).`)
  // The busiest visitor (a person with an account), the busiest address, a random visitor each time.
  const busy = traffic.visitor(0)
  let pick = 0
  const keys = {
    visitor: busy.id,
    linkedId: busy.linkedId ?? '',
    address: traffic.busyAddress,
    network: networkOf(traffic.busyAddress),
    randomVisitor: () => traffic.visitor(((++pick * 2_654_435_761) >>> 0) % traffic.visitors).id,
    site: loaded.siteKeys[1] ?? '',
  }
  log(
    `Timing ${ROUNDS} rounds of console and search answers, then ${PAUSED_ROUNDS} of the look-ups after the console sat idle ${PAUSE_MS / 1000} s…`,
  )
  const timed = await timeAnswers(first.url, scaleAnswers({ cookie, key, keys }), ROUNDS, PAUSED_ROUNDS)
  log('Exports (CSV), streamed to the end…')
  const exportOf = (name: string, query: string, pauseMs = 0) =>
    timeExport({
      url: first.url,
      path: `/api/console/export?${query}`,
      cookie,
      pid: first.pid,
      name,
      pauseMs,
    })
  const exports: ExportRun[] = []
  const day = new Date(Date.now() - 41 * 86_400_000).toISOString().slice(0, 10)
  exports.push(await exportOf('events: one day', `kind=events&from=${day}&to=${day}`))
  exports.push(await exportOf('sign-up decisions: all', 'kind=decisions'))
  // Every event read straight through, then again by an operator whose side stops for 10 s after
  // the first chunk (a server that does not wait for its reader would read ahead meanwhile).
  const [wide, range] = EXPORT_ALL
    ? ['all', '']
    : ['7 days', `&from=${new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)}`]
  exports.push(await exportOf(`events: ${wide}`, `kind=events${range}`))
  exports.push(await exportOf(`events: ${wide}, reader pauses 10 s`, `kind=events${range}`, 10_000))

  const bodies = identifyBodies(traffic)
  const identifyUrl = (server: { url: string }) => `${server.url}/api/v1/identify`
  const measure = async (name: string, targets: string[], pids: number[]): Promise<IdentifyRun> => {
    // Long enough to reach a steady queue: on a busy 2-core machine an answer can take seconds.
    await driveIdentify(targets, bodies, { seconds: 3 })
    const postmaster = database.postgres && postmasterOf(database.postgres.dataDirectory)
    const run = await driveIdentify(targets, bodies, { seconds: SECONDS, pids, postmaster })
    log(
      `  ${name}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, errors ${failuresOf(run)}`,
    )
    return run
  }
  log('Identify throughput (app servers pinned to one CPU each)…')
  const pinned = pinToCpus(first.pid, '0')
  let floorRun: IdentifyRun | undefined
  if (url) {
    const floorPort = PORT + 2
    const floor = await startFloor({ url, port: floorPort, defer })
    if (floor.pid) pinToCpus(floor.pid, '0')
    floorRun = await measure('floor', [`http://127.0.0.1:${floorPort}/`], floor.pid ? [floor.pid] : [])
    await floor.stop()
  }
  const one = await measure('one server', [identifyUrl(first)], [first.pid])
  let two: IdentifyRun | undefined
  if (url) {
    const second = await server('b', PORT + 1)
    pinToCpus(second.pid, '1')
    if (handle) await waitQuiet(handle)
    two = await measure('two servers', [identifyUrl(first), identifyUrl(second)], [first.pid, second.pid])
    await second.stop()
  }
  // Both CPUs for one server: what a second process adds beyond more CPU for the first.
  pinToCpus(first.pid, '0,1')
  const unpinned = await measure('one server, both CPUs', [identifyUrl(first)], [first.pid])

  // Retention as a running server meets it (a pass an hour, so one day's table at a time): the oldest
  // expired day alone, then the other nine at once (after a server was down for days), each under
  // identify load on one server. The embedded database is the server's own: the bench stops the
  // server and runs both passes with no load.
  log(
    `Retention passes (${RETENTION_DAYS} days)${embedded ? ', the server stopped' : ' under identify load on one server'}…`,
  )
  let before: IdentifyRun | undefined
  const observed: { before?: Observed } = {}
  let fileSystem: FileSystemSeen | undefined
  if (embedded) {
    // The server closes the embedded database as it exits: waited for, however long it takes (a
    // stop's SIGKILL after 5 s would leave the directory to recovery, or still locked).
    process.kill(first.pid, 'SIGTERM')
    const code = await Promise.race([
      first.exited,
      new Promise((resolve) => setTimeout(resolve, 120_000, 'late')),
    ])
    await first.stop()
    if (code !== 0)
      log(`  the server did not exit cleanly (${String(code)}): the database reopens through recovery`)
    handle = await database.open()
  } else {
    // Before the load's windows: it writes and frees a quarter of a GB.
    fileSystem = database.postgres && measureFileSystem(database.postgres.dataDirectory, log)
    const seen = observeDatabase(db())
    before = await driveIdentify([identifyUrl(first)], bodies, { seconds: SECONDS })
    observed.before = await seen()
  }
  const timedPass = async (days: number): Promise<RetentionPass> => {
    const seen = embedded ? undefined : observeDatabase(db())
    const started = performance.now()
    // Timed to the pass's own end, not the load's, whose stop waits for the calls in flight.
    let ended = started
    const purging = purgeExpiredData({ db: db(), days }).finally(() => {
      ended = performance.now()
    })
    const during = embedded
      ? undefined
      : await driveIdentify([identifyUrl(first)], bodies, { seconds: SECONDS, until: purging })
    return { purged: await purging, seconds: (ended - started) / 1000, during, observed: await seen?.() }
  }
  const oneDay = await timedPass(RETENTION_DAYS + EXPIRED_DAYS - 1)
  // The same load again, as long as the pass ran (up to 10 min): a p99 over minutes catches more of
  // the rare slow answers any server has than one over seconds. The report gives the rise against
  // both baselines, and its last line the larger (the window after may hold the clean-up the pass
  // left behind, such as autovacuum on its dead rows).
  if (oneDay.during) {
    const seconds = Math.round(Math.min(600, Math.max(SECONDS, oneDay.seconds)))
    const seen = observeDatabase(db())
    oneDay.after = {
      seconds,
      run: await driveIdentify([identifyUrl(first)], bodies, { seconds }),
      observed: await seen(),
    }
  }
  const rest = await timedPass(RETENTION_DAYS)

  printReport({
    quick,
    engine: ENGINE,
    loaded,
    storage,
    bytesPerEvent,
    timed,
    exports,
    identify: { floor: floorRun, one, two, unpinned, pinned },
    retention: { before, beforeObserved: observed.before, fileSystem, oneDay, rest },
    packing: embedded ? undefined : { ...packed, oneDay: await packYesterday(db(), now, first, bodies) },
    log,
  })
}

/**
 * Yesterday's indexes packed again under identify load, as the first hourly pass after midnight
 * meets them (its mark undone: the rebuild is the same work whether they were packed or not).
 */
async function packYesterday(
  db: Database,
  now: Date,
  server: { url: string },
  bodies: ReturnType<typeof identifyBodies>,
): Promise<PackPass> {
  const yesterday = `events_${new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10).replaceAll('-', '')}`
  await db.execute(sql`alter table ${sql.identifier(yesterday)} reset (fillfactor)`)
  const [dayRows] = await queryRows<{ rows: number }>(
    db,
    sql`select count(*)::int as rows from ${sql.identifier(yesterday)}`,
  )
  const started = performance.now()
  let ended = started
  const packing = packPastDayIndexes(db, now.getTime()).finally(() => {
    ended = performance.now()
  })
  const during = await driveIdentify([`${server.url}/api/v1/identify`], bodies, {
    seconds: SECONDS,
    until: packing,
  })
  return {
    table: (await packing) ?? 'none',
    rows: dayRows?.rows ?? 0,
    seconds: (ended - started) / 1000,
    during,
  }
}

process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)))
process.once('SIGTERM', () => void cleanUp().then(() => process.exit(143)))
try {
  await main()
} finally {
  await cleanUp()
}
