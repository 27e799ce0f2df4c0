// npm run bench:identify — throughput and latency of POST /api/v1/identify on the embedded
// database, prefilled with 10 k and then 1 M synthetic visitors, against a floor: a bare node:http
// server doing the same validation and the same database work (identifyVisitor) in one process.
// BENCH_QUICK=1 runs a small smoke version.
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { IdentifyRequest } from '../src/contracts/identify'
import { openDatabase } from '../src/server/db/client'
import { identifyVisitor } from '../src/server/identification/identify-visitor'
import { syntheticDevice } from '../src/server/identification/synthetic-devices'
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
    if (child.exitCode !== null) throw new Error('Tessera exited during start-up')
    try {
      if ((await fetch(`${url}/api/health`)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  throw new Error('Tessera did not become healthy')
}

async function runTessera(dataDir: string, population: number): Promise<Result> {
  const port = 3411
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      TESSERA_HOST: '127.0.0.1',
      TESSERA_DATA_DIR: dataDir,
      TESSERA_LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    const url = `http://127.0.0.1:${port}`
    await waitHealthy(url, child)
    return await load(`${url}/api/v1/identify`, population)
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

async function runFloor(dataDir: string, population: number): Promise<Result> {
  const handle = await openDatabase({ dataDir })
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const parsed = IdentifyRequest.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')))
    if (!parsed.success) {
      response.writeHead(400).end()
      return
    }
    const result = await identifyVisitor({
      db: handle.db,
      input: parsed.data,
      context: { ip: request.socket.remoteAddress ?? null, userAgent: request.headers['user-agent'] ?? null },
    })
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result))
  })
  await new Promise<void>((resolve) => server.listen(3412, '127.0.0.1', resolve))
  try {
    return await load('http://127.0.0.1:3412/', population)
  } finally {
    server.close()
    await handle.close()
  }
}

async function main() {
  if (!existsSync('.next/BUILD_ID')) throw new Error('Build Tessera first: npm run build')
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
