// bench:scale's closing table, and its last line (the one CI and the issue read).
import type { Purged } from '../../src/server/retention/purge-expired-data'
import type { Timed } from './scale-console'
import type { ScaleEngine } from './scale-engine'
import type { ExportRun } from './scale-export'
import { failuresOf, type IdentifyRun } from './scale-identify'
import type { LoadedTraffic } from './scale-load'
import { describeFileSystem, describeObserved, type FileSystemSeen, type Observed } from './scale-observe'
import type { ColumnSize, TableSize } from './scale-storage'

/** One retention pass under identify load: what it removed, how long it took, identify meanwhile. */
export interface RetentionPass {
  purged: Purged
  seconds: number
  /** None on the embedded database: the bench runs its passes with the server stopped. */
  during?: IdentifyRun
  /** The same load right after the pass, as long as it ran (at least SECONDS, at most 10 min). */
  after?: { seconds: number; run: IdentifyRun; observed?: Observed }
  /** Autovacuum and the stored visitors while the pass ran (PostgreSQL). */
  observed?: Observed
}

/** One past day's indexes packed under identify load (db/event-partitions.ts). */
export interface PackPass {
  table: string
  rows: number
  seconds: number
  during: IdentifyRun
}

/** 10M, 1.5M, 100k, 950. */
export function shortCount(count: number): string {
  const round = (value: number) => String(Number(value.toPrecision(3)))
  if (count >= 1_000_000) return `${round(count / 1_000_000)}M`
  if (count >= 1_000) return `${round(count / 1_000)}k`
  return String(count)
}

const megabytes = (bytes: number | string) => `${(Number(bytes) / 1_048_576).toFixed(0)} MB`
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`

function table(log: (line: string) => void, header: string[], rows: string[][]) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
  log(line(header))
  for (const row of rows) log(line(row))
}

export function printReport({
  quick,
  engine,
  loaded,
  storage,
  bytesPerEvent,
  timed,
  exports,
  identify,
  retention,
  packing,
  log,
}: {
  quick: boolean
  engine: ScaleEngine
  loaded: LoadedTraffic
  storage: { tables: TableSize[]; columns: ColumnSize[] }
  bytesPerEvent: number
  timed: Timed[]
  exports: ExportRun[]
  /** The floor and two servers: PostgreSQL only (the embedded database is one server's own). */
  identify: {
    floor?: IdentifyRun
    one: IdentifyRun
    two?: IdentifyRun
    unpinned: IdentifyRun
    pinned: boolean
  }
  /** The oldest expired day's pass alone, then the rest of the expired days in one pass. */
  retention: {
    before?: IdentifyRun
    beforeObserved?: Observed
    /** PostgreSQL: the file system under its data directory. */
    fileSystem?: FileSystemSeen
    oneDay: RetentionPass
    rest: RetentionPass
  }
  /** Every past day packed after the load, then yesterday's again under identify load (day tables: PostgreSQL). */
  packing?: { days: number; seconds: number; oneDay: PackPass }
  log: (line: string) => void
}) {
  log('')
  const embedded = engine === 'pglite'
  log(`bench:scale${embedded ? ' on the embedded database (PGlite)' : ''}${quick ? ' (BENCH_QUICK)' : ''}`)
  log(
    `Loaded ${loaded.events.toLocaleString('en')} events of ${loaded.visitors.toLocaleString('en')} visitors over 4 sites, ${loaded.signups.toLocaleString('en')} sign-up decisions, ${loaded.expiredEvents.toLocaleString('en')} events past retention; ${loaded.seconds.toFixed(0)} s (${(loaded.events / loaded.seconds).toFixed(0)} events/s, indexes and vacuum included)`,
  )
  log('')
  table(
    log,
    ['storage', 'heap', 'toast', 'indexes', 'total', 'per event'],
    storage.tables.map((row) => [
      row.table,
      megabytes(row.heap),
      megabytes(row.toast),
      megabytes(row.indexes),
      megabytes(row.total),
      `${(Number(row.total) / loaded.events).toFixed(0)} B`,
    ]),
  )
  const widest = storage.columns.filter((column) => column.bytes >= 16).sort((a, b) => b.bytes - a.bytes)
  log(
    `Mean stored size per row (compressed, before TOAST's own overhead): ${widest.map((column) => `${column.table}.${column.column} ${column.bytes.toFixed(0)} B`).join(', ')}`,
  )
  log('')
  table(
    log,
    ['answer', 'p50', 'p95', 'samples', 'body'],
    timed.map((answer) => [
      `${answer.group === 'console' ? 'console' : 'search'}: ${answer.name}`,
      ms(answer.p50),
      ms(answer.p95),
      String(answer.samples),
      `${(answer.bytes / 1024).toFixed(1)} KB`,
    ]),
  )
  log('')
  table(
    log,
    ['export (CSV)', 'rows', 'size', 'first byte', 'total', 'rows/s', 'server RSS before → peak'],
    exports.map((run) => [
      run.name,
      run.rows.toLocaleString('en'),
      megabytes(run.bytes),
      ms(run.firstByteMs),
      `${run.seconds.toFixed(1)} s`,
      (run.rows / run.seconds).toFixed(0),
      `${run.rssBeforeMb.toFixed(0)} → ${run.rssPeakMb.toFixed(0)} MB (+${(run.rssPeakMb - run.rssBeforeMb).toFixed(0)})`,
    ]),
  )
  for (const run of exports) {
    if (!run.pause) continue
    // The same export read straight through: the paused one's name is its name and the pause.
    const straight = exports.find((other) => !other.pause && run.name.startsWith(`${other.name},`))
    const { seconds, rssStartMb, rssPeakMb, restSeconds } = run.pause
    log(
      `"${run.name}": while the reader paused ${seconds} s after the first chunk, the server's memory went ${rssStartMb.toFixed(0)} → ${rssPeakMb.toFixed(0)} MB at most (+${(rssPeakMb - rssStartMb).toFixed(0)}); the rest then took ${restSeconds.toFixed(1)} s${straight ? ` (straight through: ${straight.seconds.toFixed(1)} s), so the server ${restSeconds > straight.seconds / 2 ? 'waited for its reader' : 'had read ahead'}` : ''}.`,
    )
  }
  log('')
  const run = (name: string, figures: IdentifyRun) => [
    name,
    `${figures.rps.toFixed(0)} req/s`,
    `${figures.p50} ms`,
    `${figures.p99} ms`,
    failuresOf(figures),
  ]
  table(
    log,
    ['identify', 'throughput', 'p50', 'p99', 'errors'],
    [
      identify.floor &&
        run(`floor (bench:identify's, one process${identify.pinned ? ', CPU 0' : ''})`, identify.floor),
      run(`one app server${identify.pinned ? ' (CPU 0)' : ''}`, identify.one),
      identify.two && run(`two app servers${identify.pinned ? ' (CPU 0, CPU 1)' : ''}`, identify.two),
      run('one app server, both CPUs', identify.unpinned),
      retention.before && run('one server (both CPUs), before retention', retention.before),
      retention.oneDay.during &&
        run("one server (both CPUs), during the oldest day's retention", retention.oneDay.during),
      retention.oneDay.after &&
        run(
          `one server (both CPUs), ${retention.oneDay.after.seconds} s after it`,
          retention.oneDay.after.run,
        ),
      retention.rest.during && run('one server (both CPUs), during the other days', retention.rest.during),
      packing && run("one server (both CPUs), while a past day's indexes are packed", packing.oneDay.during),
    ].filter((row) => row !== undefined),
  )
  log('')
  const cpuRow = (name: string, figures: IdentifyRun) => {
    const cpu = figures.cpu
    if (!cpu) return [name, 'n/a', '', '', '', '']
    const { servers, postgres, client, other } = cpu.perRequest
    return [
      name,
      `${(cpu.busy * 100).toFixed(0)}% of ${cpu.cores}`,
      `${servers.toFixed(1)} ms`,
      embedded ? 'n/a' : `${postgres.toFixed(1)} ms`,
      `${client.toFixed(1)} ms`,
      `${other.toFixed(1)} ms`,
    ]
  }
  table(
    log,
    ['CPU per request', 'machine busy', 'server(s)', 'PostgreSQL', 'load generator', 'other'],
    [
      identify.floor && cpuRow("floor (bench:identify's)", identify.floor),
      cpuRow(embedded ? 'one app server (its database inside)' : 'one app server', identify.one),
      identify.two && cpuRow('two app servers', identify.two),
      cpuRow('one app server, both CPUs', identify.unpinned),
    ].filter((row) => row !== undefined),
  )
  const bound = machineBound(identify)
  if (bound) log(bound)
  // A pass shorter than one answer under load sees none finish: say so, not "0 ms".
  const p99During = (during: IdentifyRun | undefined, after?: RetentionPass['after']) =>
    !during || !retention.before
      ? "no identify load meanwhile (the embedded database is the stopped server's own)"
      : during.rps === 0 && during.errors === 0
        ? 'no identification finished while it ran (it was shorter than one answer)'
        : `identify p99 ${retention.before.p99} → ${during.p99} ms while it ran${after ? ` → ${after.run.p99} ms over ${after.seconds} s after it (p50 ${retention.before.p50} → ${during.p50} → ${after.run.p50} ms, ${retention.before.rps.toFixed(0)} → ${during.rps.toFixed(0)} → ${after.run.rps.toFixed(0)} req/s)` : ''}`
  const pass = (title: string, { purged, seconds, during, after }: RetentionPass) =>
    log(
      `${title}: ${seconds.toFixed(2)} s, removed ${purged.events.toLocaleString('en')} events, ${purged.visitors.toLocaleString('en')} visitors, ${purged.decisions.toLocaleString('en')} sign-up decisions, ${purged.snapshots.toLocaleString('en')} component snapshots (${embedded ? `events and other rows ${((purged.took.days + purged.took.rows) / 1000).toFixed(2)} s` : `day tables ${(purged.took.days / 1000).toFixed(2)} s (detaching ${(purged.took.detaching / 1000).toFixed(2)}, dropping ${(purged.took.dropping / 1000).toFixed(2)}), other rows ${(purged.took.rows / 1000).toFixed(2)} s`}, visitors ${(purged.took.visitors / 1000).toFixed(2)} s, snapshots ${(purged.took.snapshots / 1000).toFixed(2)} s); ${p99During(during, after)}`,
    )
  log('')
  pass(
    `Retention, the oldest expired day${embedded ? '' : "'s table"} alone (as an hourly pass meets each day)`,
    retention.oneDay,
  )
  pass('Retention, the other expired days at once', retention.rest)
  const windows: [string, Observed | undefined][] = [
    ['before the passes', retention.beforeObserved],
    ["during the oldest day's pass", retention.oneDay.observed],
    ['after it', retention.oneDay.after?.observed],
    ["during the other days' pass", retention.rest.observed],
  ]
  const described = windows.flatMap(([name, observed]) =>
    observed ? [`${name}: ${describeObserved(observed, shortCount)}`] : [],
  )
  if (described.length > 0) log(`Beside the identify load, ${described.join('; ')}.`)
  if (retention.fileSystem)
    log(
      `The database's data directory: ${describeFileSystem(retention.fileSystem)} (a dropped day's table and indexes are freed so).`,
    )
  if (packing)
    log(
      `Packing a past day's indexes (${packing.oneDay.table}, ${packing.oneDay.rows.toLocaleString('en')} events) as the first hourly pass after midnight does: ${packing.oneDay.seconds.toFixed(2)} s; ${p99During(packing.oneDay.during)} (all ${packing.days} past days after the load: ${packing.seconds.toFixed(1)} s)`,
    )
  log('')
  const slowest = (group: Timed['group']) =>
    timed
      .filter((answer) => answer.group === group)
      .reduce((worst, answer) => (answer.p95 > worst.p95 ? answer : worst))
  // No answer at all in the window (a starved machine) leaves no ratio to give.
  const ratio =
    identify.two && identify.one.rps > 0 ? (identify.two.rps / identify.one.rps).toFixed(2) : 'n/a'
  const throughput = identify.two
    ? `identify 2 servers ${identify.two.rps.toFixed(0)} req/s (${ratio} x one server)`
    : `identify 1 server ${identify.one.rps.toFixed(0)} req/s`
  const screen = slowest('console')
  const search = slowest('search')
  // The largest export read straight through (the paused one's rate counts its pause).
  const largest = exports
    .filter((run) => !run.pause)
    .reduce((worst, run) => (run.rows > worst.rows ? run : worst))
  const growth = Math.max(...exports.map((run) => run.rssPeakMb - run.rssBeforeMb))
  // The oldest day's pass: its tables and rows, then its visitors and snapshots, paced apart.
  const day = retention.oneDay
  const dayRows = (day.purged.took.days + day.purged.took.rows) / 1000
  // The larger rise of the two baselines (before it; as long after it, when it answered cleanly).
  const rise = (baseline: IdentifyRun | undefined) =>
    baseline && day.during && day.during.rps > 0 && baseline.p99 > 0 && baseline.errors === 0
      ? day.during.p99 / baseline.p99 - 1
      : undefined
  const rises = [rise(retention.before), rise(day.after?.run)].filter((value) => value !== undefined)
  const worst = Math.max(...rises)
  // Where the data directory trims every freed block, dropping the day's table waits for the device.
  const discarding = retention.fileSystem?.discard
    ? ` (dropping its table ${(day.purged.took.dropping / 1000).toFixed(2)} s on a file system with online discard)`
    : ''
  const dayRise =
    rises.length > 0 ? `, identify p99 ${worst >= 0 ? '+' : ''}${(worst * 100).toFixed(0)}%` : ''
  log(
    `scale: ${shortCount(loaded.events)} events${embedded ? ' on the embedded database' : ''}, ${bytesPerEvent.toFixed(0)} B/event, console p95 ${screen.p95.toFixed(0)} ms (slowest: ${screen.name}), search p95 ${search.p95.toFixed(0)} ms, ${throughput}, retention ${dayRows.toFixed(2)} s a day of ${shortCount(day.purged.events)} events${discarding}, its ${shortCount(day.purged.visitors)} visitors and snapshots paced over ${((day.purged.took.visitors + day.purged.took.snapshots) / 1000).toFixed(1)} s${dayRise} (${(retention.oneDay.seconds + retention.rest.seconds).toFixed(1)} s for ${shortCount(retention.oneDay.purged.events + retention.rest.purged.events)} expired events), export ${shortCount(largest.rows)} rows at ${(largest.rows / largest.seconds).toFixed(0)} rows/s (first byte ${largest.firstByteMs.toFixed(0)} ms, server RSS +${growth.toFixed(0)} MB at most)`,
  )
}

/**
 * What this machine allows two servers, from the CPU the two-server run spent per request: all its
 * cores, busy with the servers, PostgreSQL and the load generator at those costs, answer at most
 * cores × 1000 / (ms per request) a second; set against one server's throughput, that is the
 * ratio two servers could reach here at best.
 */
function machineBound(identify: { one: IdentifyRun; two?: IdentifyRun }): string | undefined {
  const cpu = identify.two?.cpu
  if (!cpu || identify.one.rps <= 0) return undefined
  const { servers, postgres, client, other } = cpu.perRequest
  const perRequest = servers + postgres + client + other
  if (perRequest <= 0) return undefined
  const ceiling = (cpu.cores * 1000) / perRequest
  return `Two servers on this machine: ${(cpu.busy * 100).toFixed(0)}% of its ${cpu.cores} CPUs busy, ${perRequest.toFixed(1)} ms of CPU per request (servers ${servers.toFixed(1)}, PostgreSQL ${postgres.toFixed(1)}, load generator ${client.toFixed(1)}, other ${other.toFixed(1)}): at most ${ceiling.toFixed(0)} req/s, ${(ceiling / identify.one.rps).toFixed(2)}x one server, with every CPU busy.`
}
