// npm run bench:durability — a crash never loses an acknowledged write. Each cycle drives
// identifications and sign-ups at a production server, kills it with SIGKILL at a random moment,
// starts it again on the same data and reads every acknowledged write back through the Server API
// and the console. First on the embedded PGlite, then on a PostgreSQL server (which keeps running).
// BENCH_QUICK=1 runs a few cycles per engine.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defaultSignupPolicy } from '../src/contracts/signup-policy'
import { createApiKey } from '../src/server/api/create-api-key'
import { type DatabaseOptions, openDatabase } from '../src/server/db/client'
import { updateSignupPolicy } from '../src/server/signup/policy/update-policy'
import { ensureDefaultSite } from '../src/server/sites/ensure-default-site'
import { findSite } from '../src/server/sites/find-site'
import { allRulesOff } from '../tests/support/helpers'
import {
  assertProductionBuild,
  type RunningServer,
  startTesseraServer,
} from '../tests/support/tessera-server'
import { findPostgresBin, startThrowawayPostgres } from '../tests/support/throwaway-postgres'
import {
  type Ack,
  assertReadBackDetectsLoss,
  createDeviceSource,
  driveWrites,
  type Reader,
  signInToConsole,
  verifyWrites,
  warmUp,
} from './support/acknowledged-writes'

const quick = process.env.BENCH_QUICK === '1'
const cyclesPerEngine = Number(process.env.BENCH_CYCLES ?? (quick ? 3 : 20))
const PORT = 3141
const POSTGRES_PORT = 5441
const ADMIN_PASSWORD = 'durability-bench-operator-password'

interface EngineResult {
  engine: string
  cycles: number
  acks: number
  lost: number
}

/** Creates the schema, the default site, a secret API key and a policy that allows every sign-up. */
async function prepareDatabase(options: DatabaseOptions): Promise<string> {
  const { db, close } = await openDatabase(options)
  try {
    await ensureDefaultSite({ db, origins: [] })
    const site = await findSite({ db })
    if (!site) throw new Error('no default site')
    // Every rule off: each device signs up once, and each sign-up creates an account to read back.
    const policy = { ...defaultSignupPolicy, ...allRulesOff } as const
    await updateSignupPolicy({ db, operator: 'bench:durability', policy })
    return (await createApiKey({ db, siteId: site.id, name: 'bench:durability' })).key
  } finally {
    await close()
  }
}

/** Cycles on PGlite, or on PostgreSQL when a URL is given. */
async function runEngine(engine: string, postgresUrl?: string): Promise<EngineResult> {
  const work = mkdtempSync(path.join(tmpdir(), `tessera-durability-${engine}-`))
  // startTesseraServer keeps PGlite's files in <dataDir>/db and its log beside <dataDir>.
  const dataDir = path.join(work, 'server')
  const apiKey = await prepareDatabase(
    postgresUrl ? { url: postgresUrl } : { dataDir: path.join(dataDir, 'db') },
  )
  const start = () =>
    startTesseraServer({
      port: PORT,
      dataDir,
      ownProcessGroup: true,
      env: {
        ...(postgresUrl ? { DATABASE_URL: postgresUrl } : {}),
        TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD,
        TESSERA_LOG_LEVEL: 'warn',
        // The bench sends X-Forwarded-For: one address per device.
        TESSERA_TRUSTED_PROXIES: '1',
      },
    })
  const devices = createDeviceSource()
  const all: Ack[] = []
  const lost = new Set<string>()
  let server: RunningServer = await start()
  try {
    // One sign-in per engine (at most 30 per address in 15 minutes); the session outlives restarts.
    const reader: Reader = {
      url: server.url,
      apiKey,
      sessionCookie: await signInToConsole(server.url, ADMIN_PASSWORD),
    }
    for (let cycle = 1; cycle <= cyclesPerEngine; cycle++) {
      // A margin for the two clocks (ours, the database's), which read the same machine's time.
      const since = new Date(Date.now() - 10_000)
      const killAfter = 300 + Math.random() * 1200
      const running = server
      const acks = await warmUp(running.url, devices)
      const load = await driveWrites({
        url: running.url,
        devices,
        identifyWorkers: 12,
        signupWorkers: 4,
        killAfterMs: killAfter,
        kill: () => running.crash(),
      })
      acks.push(...load.acks)
      const restartedAt = performance.now()
      server = await start()
      const restartMs = performance.now() - restartedAt
      const missing = await verifyWrites(reader, acks, { since })
      for (const reason of missing) lost.add(reason)
      all.push(...acks)
      const signups = acks.filter((ack) => ack.kind === 'signup').length
      console.log(
        `${engine} cycle ${cycle}: killed after ${(killAfter / 1000).toFixed(2)} s with ${load.inFlightAtKill} requests in flight; ${acks.length - signups} identifications and ${signups} sign-ups acknowledged, ${missing.length} lost; restart ${(restartMs / 1000).toFixed(1)} s`,
      )
      for (const reason of missing.slice(0, 5)) console.log(`  lost: ${reason}`)
    }
    // Later crashes must not have taken earlier writes with them.
    for (const reason of await verifyWrites(reader, all)) lost.add(reason)
    await assertReadBackDetectsLoss(reader, all)
  } finally {
    await server.stop()
  }
  // Kept on failure, for the server's log.
  rmSync(work, { recursive: true, force: true })
  return { engine, cycles: cyclesPerEngine, acks: all.length, lost: lost.size }
}

/** The PostgreSQL server binaries, installed from Debian when missing (as root), or undefined. */
function postgresBin(): string | undefined {
  const found = findPostgresBin()
  if (found || process.getuid?.() !== 0) return found
  console.log('Installing postgresql (apt-get)…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env })
  return findPostgresBin()
}

function ensureProductionBuild() {
  try {
    assertProductionBuild()
  } catch {
    console.log('No production build: running npm run build…')
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
    if (build.status !== 0) throw new Error('npm run build failed')
  }
}

async function main() {
  ensureProductionBuild()
  const results: EngineResult[] = []
  results.push(await runEngine('pglite'))

  const bin = postgresBin()
  if (!bin) {
    console.log('postgres: skipped (no PostgreSQL server binaries, and not root to install them)')
  } else {
    // fsync on, as in production; only Tessera is killed, PostgreSQL keeps running.
    const postgres = startThrowawayPostgres({ bin, port: POSTGRES_PORT, fsync: true })
    try {
      results.push(await runEngine('postgres', postgres.url))
    } finally {
      postgres.stop()
    }
  }

  for (const result of results)
    console.log(`${result.engine}: ${result.cycles} cycles, ${result.acks} acknowledged, ${result.lost} lost`)
  const sum = (key: 'cycles' | 'acks' | 'lost') => results.reduce((total, result) => total + result[key], 0)
  console.log(`durability: ${sum('cycles')} cycles, ${sum('acks')} acknowledged, ${sum('lost')} lost`)
}

await main()
