// npm run bench:flood — one host's flood must not starve everyone else (issue #27, item 9).
// Starts the production server (scripts/serve.mjs, default settings), lets eight other clients
// identify at a steady pace, and measures their p99 without, then during, a burst of 7,500 identify
// calls in 10 s from one address; /api/health's latency throughout (probed four times a second);
// and how long after the burst the server's CPU is idle again.
// Targets: the others' p99 within 2x of its unflooded value, health under 1 s throughout, idle
// within 30 s. Each client is its own loopback address (127.0.0.x): the server sees real socket
// addresses and trusts no proxy, as a default deployment does, so nothing is taken on a header's word.
// The flood runs in a child process, so its event loop never delays the measuring clients'.
// BENCH_QUICK=1: a 2 s burst (the same rate), for CI. BENCH_FLOOD=distinct: a new device per
// flood call (harsher than the audit's identical calls). BENCH_PORT: the server's port.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { createServer } from 'node:net'
import { syntheticDevice } from '../tests/support/synthetic-devices'
import { assertProductionBuild, removeServerFiles, startTesseraServer } from '../tests/support/tessera-server'

const quick = process.env.BENCH_QUICK === '1'
const burstSeconds = quick ? 2 : 10
const burstCalls = quick ? 1_500 : 7_500
const baselineSeconds = quick ? 4 : 10
const idleLimitSeconds = quick ? 30 : 60
const otherClients = 8
/** Each other client waits this long between its calls: 8 clients, about 60 calls a second in all. */
const thinkMs = 120
const floodAddress = '127.0.0.66'
const distinct = process.env.BENCH_FLOOD === 'distinct'
const log = (line: string) => console.log(line)

interface Sample {
  at: number
  ms: number
  status: number | 'error'
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/** One request on a keep-alive agent; its latency and status (a time-out or reset: 'error'). */
function send(
  agent: Agent,
  port: number,
  path: string,
  body?: string,
): Promise<{ sample: Sample; text: string }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const done = (status: Sample['status'], text = '') =>
      resolve({ sample: { at: started, ms: performance.now() - started, status }, text })
    const outgoing = request({
      host: '127.0.0.1',
      port,
      path,
      agent,
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      timeout: 30_000,
    })
    outgoing.once('timeout', () => outgoing.destroy(new Error('timed out')))
    outgoing.once('error', () => done('error'))
    outgoing.once('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        text += chunk
      })
      response.once('end', () => done(response.statusCode ?? 0, text))
    })
    outgoing.end(body)
  })
}

/** A client identifying its own ten devices in turn, returning ones with their stored token. */
async function otherClient(index: number, port: number, running: () => boolean, samples: Sample[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.0.${10 + index}` })
  const tokens = new Map<number, string>()
  for (let call = 0; running(); call++) {
    const seed = 60_000_000 + index * 1_000 + (call % 10)
    const body = JSON.stringify({
      components: syntheticDevice(seed),
      storedToken: tokens.get(seed),
      url: 'https://shop.example/',
    })
    const { sample, text } = await send(agent, port, '/api/v1/identify', body)
    samples.push(sample)
    if (sample.status === 200) tokens.set(seed, (JSON.parse(text) as { storedToken: string }).storedToken)
    await new Promise((resolve) => setTimeout(resolve, thinkMs))
  }
  agent.destroy()
}

async function healthProbe(port: number, running: () => boolean, samples: Sample[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  while (running()) {
    const { sample } = await send(agent, port, '/api/health')
    samples.push(sample)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  agent.destroy()
}

/** CPU seconds the server process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100
}

function runFlood(port: number): Promise<{ sendingMs: number; statuses: Record<string, number> }> {
  const options = {
    port,
    localAddress: floodAddress,
    calls: burstCalls,
    seconds: burstSeconds,
    timeoutMs: 10_000,
    distinct,
  }
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/support/flood-client.ts', JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').pop() ?? '{}'))
        : reject(new Error(`flood client exited ${code}`)),
    ),
  )
}

/** The server's CPU use between two moments, in cores (1 = one core busy). */
function coresUsed(cpu: Array<{ at: number; seconds: number }>, from: number, to: number): number {
  const inside = cpu.filter((sample) => sample.at >= from && sample.at <= to)
  const first = inside[0]
  const last = inside[inside.length - 1]
  return first && last && last.at > first.at
    ? (last.seconds - first.seconds) / ((last.at - first.at) / 1_000)
    : 0
}

const within = (samples: Sample[], from: number, to: number) =>
  samples.filter((sample) => sample.at >= from && sample.at < to)

function percentile(samples: Sample[], share: number): number {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN
}

function statusCounts(samples: Sample[]): string {
  const counts: Record<string, number> = {}
  for (const { status } of samples) counts[status] = (counts[status] ?? 0) + 1
  return JSON.stringify(counts)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function main() {
  assertProductionBuild()
  const port = Number(process.env.BENCH_PORT ?? (await freePort()))
  log(`Starting Tessera on port ${port}…`)
  const server = await startTesseraServer({ port, env: { TESSERA_LOG_LEVEL: 'warn' } })
  const others: Sample[] = []
  const health: Sample[] = []
  const cpu: Array<{ at: number; seconds: number }> = []
  let othersRunning = true
  let probing = true
  const sampler = setInterval(() => cpu.push({ at: performance.now(), seconds: cpuSeconds(server.pid) }), 250)
  try {
    const clients = Array.from({ length: otherClients }, (_, index) =>
      otherClient(index, port, () => othersRunning, others),
    )
    const probe = healthProbe(port, () => probing, health)
    // Warm-up: every other client's first visits (new devices), the server's caches.
    await sleep(quick ? 2_000 : 4_000)
    const baselineFrom = performance.now()
    await sleep(baselineSeconds * 1_000)
    const floodFrom = performance.now()
    const flooding = runFlood(port)
    await sleep(burstSeconds * 1_000)
    const floodTo = performance.now()
    othersRunning = false
    await Promise.all(clients)
    const flood = await flooding
    const burstEnd = floodFrom + flood.sendingMs
    // Idle: the first second after the burst in which the server used under a tenth of a core.
    let idleAt: number | undefined
    while (performance.now() - burstEnd < idleLimitSeconds * 1_000) {
      await sleep(250)
      const now = cpu[cpu.length - 1]
      const secondAgo = [...cpu].reverse().find((sample) => now && sample.at <= now.at - 1_000)
      if (
        now &&
        secondAgo &&
        secondAgo.at >= burstEnd &&
        (now.seconds - secondAgo.seconds) / ((now.at - secondAgo.at) / 1_000) < 0.1
      ) {
        idleAt = secondAgo.at
        break
      }
    }
    probing = false
    await probe

    const before = within(others, baselineFrom, floodFrom)
    const during = within(others, floodFrom, floodTo)
    const [p99Before, p99During] = [percentile(before, 0.99), percentile(during, 0.99)]
    const healthDuring = within(health, floodFrom, idleAt ?? performance.now())
    const healthMax = Math.max(...within(health, baselineFrom, performance.now()).map((sample) => sample.ms))
    const idleSeconds = idleAt === undefined ? Number.POSITIVE_INFINITY : (idleAt - burstEnd) / 1_000
    log(
      `without the flood: others ${before.length} calls ${statusCounts(before)}, p50 ${percentile(before, 0.5).toFixed(0)} ms p99 ${p99Before.toFixed(0)} ms; server CPU ${coresUsed(cpu, baselineFrom, floodFrom).toFixed(2)} cores`,
    )
    log(
      `flood (${distinct ? 'a new device per call' : 'one device'}, ${floodAddress}): ${burstCalls} calls sent in ${(flood.sendingMs / 1_000).toFixed(1)} s, answers ${JSON.stringify(flood.statuses)}`,
    )
    log(
      `during the flood: others ${during.length} calls ${statusCounts(during)}, p50 ${percentile(during, 0.5).toFixed(0)} ms p99 ${p99During.toFixed(0)} ms; server CPU ${coresUsed(cpu, floodFrom, floodTo).toFixed(2)} cores`,
    )
    log(
      `health: ${healthDuring.length} probes from the burst to idle ${statusCounts(healthDuring)}, max ${Math.max(...healthDuring.map((sample) => sample.ms)).toFixed(0)} ms; max over the whole run ${healthMax.toFixed(0)} ms`,
    )
    log(
      `idle (under 10% of a core for 1 s): ${Number.isFinite(idleSeconds) ? `${idleSeconds.toFixed(1)} s after the burst` : `not within ${idleLimitSeconds} s`}`,
    )
    const ratio = p99During / p99Before
    const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED')
    console.log(
      `flood: others' p99 ${p99During.toFixed(0)} ms during a ${burstCalls}-call burst vs ${p99Before.toFixed(0)} ms without = ${ratio.toFixed(2)}x (target ≤ 2x: ${verdict(ratio <= 2)}); ` +
        `health max ${healthMax.toFixed(0)} ms (< 1000: ${verdict(healthMax < 1_000)}); ` +
        `idle ${Number.isFinite(idleSeconds) ? idleSeconds.toFixed(1) : `>${idleLimitSeconds}`} s after (≤ 30: ${verdict(idleSeconds <= 30)}); ` +
        `${flood.statuses['429'] ?? 0} of ${burstCalls} flood calls refused with 429`,
    )
  } finally {
    clearInterval(sampler)
    othersRunning = false
    probing = false
    await server.stop()
    if (process.env.BENCH_KEEP_LOG) console.log(`server log: ${server.logFile}`)
    else removeServerFiles(server)
  }
}

await main()
