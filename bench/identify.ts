// npm run bench:identify — throughput and latency of POST /api/v1/identify on the embedded
// database, prefilled with 10 k and then 1 M synthetic visitors, against a floor: a bare node:http
// server doing the same validation and the same database work (identifyVisitor), in its own
// process like Tessera's (bench/support/floor-server.ts).
// Both servers stay up and take turns under load, Tessera and floor alternating over several
// rounds; each side's figure is its median round. One long run each, one after the other, let
// drift on the machine (the data copies still being written back, a neighbour's load) land on
// one side only.
// BENCH_QUICK=1 runs a small smoke version; BENCH_SIZES=10000 picks the sizes; BENCH_PORT the
// servers' ports (Tessera's, and the floor's the next one).
// Each visitor comes from an address of its own, passed as X-Forwarded-For by the bench acting as
// the load balancer (TESSERA_TRUSTED_PROXIES=1; the floor reads the same header): a population is
// not one address, and Tessera's per-address admission control (README, "Admission control")
// would otherwise refuse a single address's 32 connections.
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/server/db/client'
import { syntheticDevice } from '../tests/support/synthetic-devices'
import { assertProductionBuild } from '../tests/support/tessera-server'
import { prefillVisitors } from './support/prefill-visitors'

const quick = process.env.BENCH_QUICK === '1'
const sizes = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : quick
    ? [1_000, 5_000]
    : [10_000, 1_000_000]
const duration = quick ? 3 : 20
const rounds = quick ? 1 : 3
const connections = 32
const tesseraPort = Number(process.env.BENCH_PORT ?? 3411)
const log = (line: string) => console.log(line)

interface Result {
  rps: number
  p50: number
  p99: number
  errors: number
}

/** Half returning visitors (seeds already stored), half new ones; each visitor its own address. */
function bodies(population: number) {
  let counter = 0
  return () => {
    counter++
    const seed = counter % 2 === 0 ? (counter * 7919) % population : population + 10_000_000 + counter
    return {
      body: JSON.stringify({ components: syntheticDevice(seed), url: 'https://bench.example/' }),
      address: `10.${(seed >>> 16) & 255}.${(seed >>> 8) & 255}.${seed & 255}`,
    }
  }
}

type Bodies = ReturnType<typeof bodies>

/** A measured run of `duration` seconds against a warm server; bodies continue its sequence. */
async function load(url: string, next: Bodies, warmUp: boolean): Promise<Result> {
  const options = {
    url,
    connections,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const { body, address } = next()
          const headers = {
            ...request.headers,
            'content-type': 'application/json',
            'x-forwarded-for': address,
          }
          return { ...request, body, headers }
        },
      },
    ],
  }
  if (warmUp) await autocannon({ ...options, duration: 2 })
  const result = await autocannon({ ...options, duration })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  }
}

async function waitHealthy(url: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('The server exited during start-up')
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  throw new Error('The server did not become healthy')
}

interface Server {
  name: string
  target: string
  child: ChildProcess
  next: Bodies
  runs: Result[]
}

async function startServer(
  name: string,
  command: string[],
  env: Record<string, string>,
  health: string,
  target: string,
  population: number,
): Promise<Server> {
  const child = spawn(process.execPath, command, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitHealthy(health, child)
  // Each server gets the same sequence of bodies: the same returning and new visitors, in order.
  return { name, target, child, next: bodies(population), runs: [] }
}

async function stopServer(server: Server) {
  if (server.child.exitCode !== null) return
  server.child.kill('SIGTERM')
  await new Promise((resolve) => server.child.once('exit', resolve))
}

function startTessera(dataDir: string, population: number): Promise<Server> {
  const url = `http://127.0.0.1:${tesseraPort}`
  const env = {
    PORT: String(tesseraPort),
    TESSERA_TRUSTED_PROXIES: '1',
    TESSERA_HOST: '127.0.0.1',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  }
  return startServer(
    'tessera',
    ['scripts/serve.mjs'],
    env,
    `${url}/api/health`,
    `${url}/api/v1/identify`,
    population,
  )
}

function startFloor(dataDir: string, population: number): Promise<Server> {
  const url = `http://127.0.0.1:${tesseraPort + 1}/`
  const command = [
    '--import',
    'tsx',
    '--conditions=react-server',
    'bench/support/floor-server.ts',
    dataDir,
    String(tesseraPort + 1),
  ]
  return startServer('floor', command, {}, url, url, population)
}

/** The median round of each figure (rounds are few and odd, so a real round's value). */
function median(runs: Result[]): Result {
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  return {
    rps: middle(runs.map((run) => run.rps)),
    p50: middle(runs.map((run) => run.p50)),
    p99: middle(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  }
}

async function main() {
  assertProductionBuild()
  const work = mkdtempSync(path.join(tmpdir(), 'tessera-bench-identify-'))
  const results: { size: number; tessera: Result; floor: Result }[] = []
  try {
    for (const size of sizes) {
      const seed = path.join(work, `seed-${size}`)
      log(`Prefilling ${size} visitors…`)
      const started = performance.now()
      const handle = await openDatabase({ dataDir: seed })
      await prefillVisitors(handle.db, size, log)
      await handle.close()
      log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`)

      // Each server gets its own copy: one process per PGlite directory.
      const tesseraDir = path.join(work, `tessera-${size}`)
      const floorDir = path.join(work, `floor-${size}`)
      cpSync(seed, tesseraDir, { recursive: true })
      cpSync(seed, floorDir, { recursive: true })
      const servers: Server[] = []
      try {
        servers.push(await startTessera(tesseraDir, size), await startFloor(floorDir, size))
        for (let round = 0; round < rounds; round++) {
          // Alternate who goes first, so neither side always follows the other's writes.
          for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
            const run = await load(server.target, server.next, round === 0)
            server.runs.push(run)
            log(
              `  round ${round + 1} ${server.name}: ${run.rps.toFixed(0)} req/s p50 ${run.p50} ms p99 ${run.p99} ms`,
            )
          }
        }
      } finally {
        for (const server of servers) await stopServer(server)
      }
      const [tessera, floor] = servers.map((server) => median(server.runs))
      if (!tessera || !floor) throw new Error('a server did not start')
      log(
        `${size} visitors: tessera ${tessera.rps.toFixed(0)} req/s p50 ${tessera.p50} ms p99 ${tessera.p99} ms (errors ${tessera.errors}); ` +
          `floor ${floor.rps.toFixed(0)} req/s p50 ${floor.p50} ms p99 ${floor.p99} ms (errors ${floor.errors}); ` +
          `p99 ${(tessera.p99 / floor.p99).toFixed(2)}x floor's (median of ${rounds} rounds each)`,
      )
      results.push({ size, tessera, floor })
      rmSync(tesseraDir, { recursive: true, force: true })
      rmSync(floorDir, { recursive: true, force: true })
      rmSync(seed, { recursive: true, force: true })
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  const small = results[0]
  const large = results[results.length - 1]
  if (!small || !large) throw new Error('no results')
  const growth = large.tessera.p50 / Math.max(small.tessera.p50, 0.001)
  console.log(
    `identify: ${large.tessera.rps.toFixed(0)} req/s p99 ${large.tessera.p99} ms (${(large.tessera.rps / large.floor.rps).toFixed(2)}x floor, p99 ${(large.tessera.p99 / large.floor.p99).toFixed(2)}x floor's); p50 ${large.size >= 1_000_000 ? '1M' : large.size}/${small.size >= 1000 ? `${small.size / 1000}k` : small.size} = ${growth.toFixed(2)}`,
  )
}

await main()
