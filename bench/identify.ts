// npm run bench:identify — throughput and latency of POST /api/v1/identify on the embedded
// database, prefilled with 10 k and then 1 M synthetic visitors, against a floor: a bare node:http
// server doing the same validation and the same database work (identifyVisitor), in its own
// process like Tessera's (bench/support/floor-server.ts).
// BENCH_QUICK=1 runs a small smoke version.
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/server/db/client'
import { syntheticDevice } from '../src/server/identification/synthetic-devices'
import { assertProductionBuild } from '../tests/support/tessera-server'
import { prefillVisitors } from './support/prefill-visitors'

const quick = process.env.BENCH_QUICK === '1'
const sizes = quick ? [1_000, 5_000] : [10_000, 1_000_000]
const duration = quick ? 3 : 20
const connections = 32
const log = (line: string) => console.log(line)

interface Result {
  rps: number
  p50: number
  p99: number
  errors: number
}

/** Half returning visitors (seeds already stored), half new ones. */
function bodies(population: number) {
  let counter = 0
  return () => {
    counter++
    const seed = counter % 2 === 0 ? (counter * 7919) % population : population + 10_000_000 + counter
    return JSON.stringify({ components: syntheticDevice(seed), url: 'https://bench.example/' })
  }
}

async function load(url: string, population: number): Promise<Result> {
  const next = bodies(population)
  // Warm-up, then the measured run.
  await autocannon({
    url,
    connections,
    duration: 2,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupClient: (client) => client.setBody(next()),
    requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
  })
  const result = await autocannon({
    url,
    connections,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
  })
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

/** Starts a server process, loads it, stops it. */
async function runServer(
  command: string[],
  env: Record<string, string>,
  health: string,
  target: string,
  population: number,
) {
  const child = spawn(process.execPath, command, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    await waitHealthy(health, child)
    return await load(target, population)
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

function runTessera(dataDir: string, population: number): Promise<Result> {
  const url = 'http://127.0.0.1:3411'
  const env = {
    PORT: '3411',
    TESSERA_HOST: '127.0.0.1',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  }
  return runServer(['scripts/serve.mjs'], env, `${url}/api/health`, `${url}/api/v1/identify`, population)
}

function runFloor(dataDir: string, population: number): Promise<Result> {
  const url = 'http://127.0.0.1:3412/'
  const command = [
    '--import',
    'tsx',
    '--conditions=react-server',
    'bench/support/floor-server.ts',
    dataDir,
    '3412',
  ]
  return runServer(command, {}, url, url, population)
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
      const tessera = await runTessera(tesseraDir, size)
      const floor = await runFloor(floorDir, size)
      log(
        `${size} visitors: tessera ${tessera.rps.toFixed(0)} req/s p50 ${tessera.p50} ms p99 ${tessera.p99} ms (errors ${tessera.errors}); ` +
          `floor ${floor.rps.toFixed(0)} req/s p50 ${floor.p50} ms p99 ${floor.p99} ms (errors ${floor.errors})`,
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
    `identify: ${large.tessera.rps.toFixed(0)} req/s p99 ${large.tessera.p99} ms (${(large.tessera.rps / large.floor.rps).toFixed(2)}x floor); p50 ${large.size >= 1_000_000 ? '1M' : large.size}/${small.size >= 1000 ? `${small.size / 1000}k` : small.size} = ${growth.toFixed(2)}`,
  )
}

await main()
