// npm run bench:accuracy — does Tessera recognise a device whose storage is gone, whatever the
// network and the server's history? Two parts in one run:
// 1. The browser run (live): over a generated corpus of device profiles (look-alikes included),
//    every visit is a new Chromium process on the production server: (1) each profile's first
//    visit; (2) storage-gone revisits, each on a new empty profile directory, with nothing, one or
//    two ordinary things changed (every pair of change kinds, a few pairs per profile in turn);
//    (3) storage-kept revisits on the first visit's own profile directory (the token path). Before
//    each batch of revisits the database is put back as it was after (1). FingerprintJS 5 and
//    ThumbmarkJS run in the same pages. What every page sent is recorded after each batch
//    (BENCH_RECORD=<file>, else a file in the run's directory; the path is printed), so a run cut
//    short can be replayed.
// 2. The replay matrix: the recording sent again through identifyVisitor without browsers, under
//    12 cells of address (own / shared / fresh) × arrival (first visits first / one device at a
//    time) × population (an empty server / one holding synthetic devices of the corpus's kind); a
//    report per cell, a summary, and the worst cell as the last line (support/accuracy-matrix.ts).
// BENCH_REPLAY=<file>: the replay matrix alone, on a recording. BENCH_QUICK=1: a smoke run (five
// profiles, five revisit batches, a population of 200). BENCH_PROFILES=N: fewer profiles;
// BENCH_SEED=N: another corpus of the same kind (held out); BENCH_CONCURRENCY (2): browsers at once;
// BENCH_CELLS=<patterns>: some cells (support/accuracy-cells.ts); BENCH_POPULATION=N (3000);
// BENCH_DEBUG=1: every miss and merge with its stored evidence, and each pair apart; BENCH_BATCHES:
// some storage-gone batches of the browser run, by name (a short live run of one scenario);
// BENCH_REPLAY_CONCURRENCY (16): revisits of a first-visits-first batch sent at once (1: one by one).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { assertProductionBuild } from '../tests/support/tessera-server'
import { type BrowserIdentity, bundlePeers, readBrowserIdentity, visit } from './support/accuracy-browser'
import { selectCells } from './support/accuracy-cells'
import { buildCorpus, type DeviceState, type Profile, twinPairs } from './support/accuracy-corpus'
import { ensureFonts } from './support/accuracy-fonts'
import { runMatrix } from './support/accuracy-matrix'
import { printReport, type Recorded } from './support/accuracy-output'
import { loadRecording, type Recording, saveRecording } from './support/accuracy-replay'
import {
  pairScenarios,
  quickGoneScenarios,
  quickKeptScenarios,
  storageGoneScenarios,
  storageKeptScenarios,
} from './support/accuracy-scenarios'
import { BenchServer } from './support/accuracy-server'

const quick = process.env.BENCH_QUICK === '1'
const corpusSize = 100
const profileCount = quick ? 5 : Number(process.env.BENCH_PROFILES ?? corpusSize)
const concurrency = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 2))
const port = Number(process.env.BENCH_PORT ?? 3421)
const goneScenarios = onlyBatches(
  quick ? quickGoneScenarios : storageGoneScenarios,
  process.env.BENCH_BATCHES,
)
const keptScenarios = quick ? quickKeptScenarios : storageKeptScenarios
const started = Date.now()
const log = (line: string) => console.log(line)
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`

/** BENCH_BATCHES: the storage-gone batches to run, by name, comma-separated (all when unset). */
function onlyBatches<T extends { name: string }>(scenarios: readonly T[], names: string | undefined): T[] {
  if (!names?.trim()) return [...scenarios]
  const wanted = names.split(',').map((name) => name.trim())
  const unknown = wanted.filter((name) => !scenarios.some((scenario) => scenario.name === name))
  if (unknown.length)
    throw new Error(
      `BENCH_BATCHES names no batch called ${unknown.join(', ')}: ${scenarios.map((scenario) => scenario.name).join(', ')}`,
    )
  return scenarios.filter((scenario) => wanted.includes(scenario.name))
}

/** Runs `task` over `items` with at most `concurrency` at once, keeping the items' order. */
async function inPool<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      const item = items[index] as T
      results[index] = await task(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}

/** A browser that fails to start or a page that times out on a busy machine gets two more tries. */
async function withRetries<T>(label: string, task: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task()
    } catch (error) {
      if (attempt === 3) throw error
      log(`  retrying ${label}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    }
  }
}

interface Run {
  server: BenchServer
  work: string
  identity: BrowserIdentity
  peers: string
}

interface Job {
  profile: Profile
  phase: Recorded['phase']
  scenario: string
  batch: string
  state: DeviceState
  /** A kept profile directory; without one, the launch gets a new empty one. */
  userDataDir?: string
  peers: boolean
}

/** Visits on a freshly started server, then stops it and joins each visit to its stored event. */
async function runVisits(run: Run, label: string, jobs: readonly Job[]): Promise<Recorded[]> {
  await run.server.start()
  const visits = await inPool(jobs, (job) =>
    withRetries(`${job.profile.name} (${job.scenario})`, async () => {
      // A first visit that failed half-way may have stored a token: its retry starts empty again.
      if (job.phase === 'first' && job.userDataDir) rmSync(job.userDataDir, { recursive: true, force: true })
      const userDataDir = job.userDataDir ?? mkdtempSync(path.join(run.work, 'launch-'))
      try {
        return await visit(job.state, {
          url: run.server.url,
          userDataDir,
          work: run.work,
          identity: run.identity,
          peers: job.peers ? run.peers : undefined,
        })
      } finally {
        if (!job.userDataDir) rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5 })
      }
    }),
  )
  const events = await run.server.stop()
  log(`  ${label}: ${jobs.length} visits, ${elapsed()}`)
  return jobs.map((job, index) => {
    const result = visits[index]
    if (!result) throw new Error('A job without its visit')
    const { userDataDir: _dir, peers: _peers, ...rest } = job
    return { ...rest, visit: result, event: events.get(result.requestId) }
  })
}

/** The replay's options; its seed is BENCH_SEED, else the recording's corpus seed. */
const matrixOptions = (recording: Recording) => ({
  cells: selectCells(process.env.BENCH_CELLS),
  populationSize: Number(process.env.BENCH_POPULATION ?? (quick ? 200 : 3_000)),
  seed: Number(process.env.BENCH_SEED ?? recording.seed ?? 1),
  debug: process.env.BENCH_DEBUG === '1',
})

async function replayRecording(file: string) {
  const recording = loadRecording(file)
  const options = matrixOptions(recording)
  log(
    `Replay of ${file}: ${recording.profiles.length} profiles, ${recording.recorded.length} recorded visits, ` +
      `${options.cells.length} cells, population ${options.populationSize}, no browsers`,
  )
  await runMatrix(recording, options)
}

async function main() {
  if (process.env.BENCH_REPLAY) return replayRecording(process.env.BENCH_REPLAY)
  assertProductionBuild()
  ensureFonts()
  // Browsers, fonts and the server live in `work`, removed at the end; the recording stays beside it.
  const runDir = mkdtempSync(path.join(tmpdir(), 'tessera-bench-accuracy-'))
  const work = path.join(runDir, 'work')
  mkdirSync(work)
  const recordingFile = process.env.BENCH_RECORD ?? path.join(runDir, 'recording.json')
  // Every scenario of the full run constrains the corpus, so a quick run's profiles are its first ones.
  const changes = [...storageGoneScenarios, ...storageKeptScenarios].map(
    (scenario) => (profile: Profile) => scenario.change(profile.state, profile),
  )
  const seed = process.env.BENCH_SEED ? Number(process.env.BENCH_SEED) : undefined
  const profiles = buildCorpus({ size: corpusSize, changes, seed }).slice(0, profileCount)
  const twins = twinPairs(profiles)
  log(
    `Corpus${seed === undefined ? '' : ` (seed ${seed})`}: ${profiles.length} profiles in ${new Set(profiles.map((profile) => profile.group)).size} hardware groups ` +
      `(font set, GPU path, screen), ${twins.length} twin pairs, ` +
      `${new Set(profiles.map((profile) => profile.state.fonts.join('+'))).size} font sets, ` +
      `${profiles.filter((profile) => profile.state.languages.length === 1).length} listing one language; ` +
      `${goneScenarios.length} storage-gone batches (${goneScenarios.filter((scenario) => scenario.labelFor).length} of them slots of the ${pairScenarios.length} pairs of change kinds), ` +
      `${keptScenarios.length} storage-kept scenarios taking turns; concurrency ${concurrency}`,
  )
  log(`Recording: ${recordingFile}, saved after every batch`)
  const server = new BenchServer(work, port)
  const recorded: Recorded[] = []
  let chromeMajor = 0
  try {
    const peers = await bundlePeers()
    // The first phase's server, started early: client hints need a page of a secure origin.
    await server.start()
    const identity = await readBrowserIdentity(server.url, path.join(work, 'identity'))
    chromeMajor = Number(/Chrome\/(\d+)/.exec(identity.userAgent)?.[1] ?? 0)
    const run: Run = { server, work, identity, peers }
    const profileDir = (profile: Profile) => path.join(work, 'profiles', profile.name)
    // Saved after every batch: a run cut short (a crash, a time limit) still leaves its batches to replay.
    const keep = (batch: Recorded[]) => {
      recorded.push(...batch)
      saveRecording(recordingFile, { profiles, twins, recorded, chromeMajor, seed })
    }
    mkdirSync(path.join(work, 'profiles'), { recursive: true })

    log('Phase 1: first visits (new launch, empty profile directory, kept for phase 3)')
    const firstJobs = profiles.map(
      (profile): Job => ({
        profile,
        phase: 'first',
        scenario: 'first visit',
        batch: 'first visit',
        state: profile.state,
        userDataDir: profileDir(profile),
        peers: true,
      }),
    )
    keep(await runVisits(run, 'first visit', firstJobs))
    server.saveSnapshot()

    log('Phase 2: storage gone (each revisit a new launch on a new empty profile directory)')
    for (const scenario of goneScenarios) {
      // Each scenario meets the population as the first visits left it.
      server.restoreSnapshot()
      const jobs = profiles.map(
        (profile): Job => ({
          profile,
          phase: 'gone',
          scenario: scenario.labelFor?.(profile) ?? scenario.name,
          batch: scenario.name,
          state: scenario.change(profile.state, profile),
          peers: true,
        }),
      )
      keep(await runVisits(run, scenario.name, jobs))
    }

    // One kept revisit per profile, the scenarios taking turns: the token path needs no more, and
    // the full run stays within its time budget. Peers keep nothing, so they are not run again.
    log("Phase 3: storage kept (a new launch on the first visit's own profile directory)")
    server.restoreSnapshot()
    const keptJobs = profiles.map((profile, index): Job => {
      const scenario = keptScenarios[index % keptScenarios.length] ?? keptScenarios[0]
      if (!scenario) throw new Error('No storage-kept scenario')
      return {
        profile,
        phase: 'kept',
        scenario: scenario.name,
        batch: 'storage kept',
        state: scenario.change(profile.state, profile),
        userDataDir: profileDir(profile),
        peers: false,
      }
    })
    keep(await runVisits(run, 'storage kept', keptJobs))
  } finally {
    await server.stop().catch(() => undefined)
    // Without BENCH_RECORD the recording stays in the run's directory; with it, nothing does.
    rmSync(process.env.BENCH_RECORD ? runDir : work, { recursive: true, force: true, maxRetries: 5 })
  }
  log(`Browser run: ${elapsed()}`)
  const recording: Recording = { profiles, twins, recorded, chromeMajor, seed }
  saveRecording(recordingFile, recording)
  log(`Recording: ${recordingFile} (BENCH_REPLAY=${recordingFile} replays it without browsers)`)
  printReport({ ...recording, debug: process.env.BENCH_DEBUG === '1' })
  log('')
  const options = matrixOptions(recording)
  log(
    `Replay of the recording: ${options.cells.length} cells, population ${options.populationSize}, no browsers`,
  )
  await runMatrix(recording, options)
}

await main()
