// npm run bench:agent — Tessera's agent against FingerprintJS 5 and ThumbmarkJS 1 in headless
// system Chromium, in alternation (each round starting one agent later, so that none always follows
// the same one), each load a fresh browser process on an integrator-like page (a sign-up form) from
// a local static server, unthrottled and with the CPU slowed 4× (Lighthouse's mobile profile). Two measures (the last line's wall time is unthrottled):
// - wall time: from the first script to the result, timed inside the page;
// - what the page feels: the
//   long tasks (over 50 ms) from just before the agent's script to its result (PerformanceObserver
//   'longtask'), their total blocking time (the part of each over 50 ms), the longest, and the input
//   delay of a real click dispatched while the agent collects (Event Timing's first input:
//   processingStart − startTime). Each load clicks at another point of the collection.
// A control runs beside them: the same page with no agent, a timer as long as Tessera's median
// collection so far at that rate standing in for it ('page alone'). Its long tasks and input delay are the page's and the throttled browser's own, the
// floor under any agent's figures.
// BENCH_QUICK=1 runs 3 rounds (a CI smoke run). BENCH_ROUNDS=N (30). BENCH_DEBUG=1 prints each load.
// BENCH_SOURCES=<n> prints the n Tessera sources with the highest median duration (0 = all).
// BENCH_AGENT_FILE=<file> measures another build of the agent (an A/B against a saved public/agent.js).
// BENCH_AGENT_B=<file> adds a second build as its own row ('tessera-b'), alternating with the others in
// the same run: an A/B that machine load between two runs cannot tip.
// Tessera runs with `intlWorker: true`, as a page without a CSP (this one) or one allowing
// `worker-src blob:` may set it (and /frame always does): Intl's data loads in a worker.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { build } from 'esbuild'
import { chromiumLaunchOptions } from '../tests/support/chromium'

const rounds = process.env.BENCH_QUICK === '1' ? 3 : Number(process.env.BENCH_ROUNDS ?? 30)
const debug = process.env.BENCH_DEBUG === '1'
const work = mkdtempSync(path.join(tmpdir(), 'tessera-bench-agent-'))
const agentB = process.env.BENCH_AGENT_B
const agents = ['tessera', ...(agentB ? ['tessera-b'] : []), 'fingerprintjs', 'thumbmark', 'none']
/** The agents compared: 'none' is the control. */
const peers = agents.filter((name) => name !== 'none')
/** CPU slow-downs measured: none, and Lighthouse's mobile profile. */
const rates = [1, 4]
const LONG_TASK_MS = 50

if (!process.env.BENCH_AGENT_FILE)
  execFileSync(process.execPath, ['scripts/build-agent.mjs'], { stdio: 'inherit' })

async function bundle(name, contents) {
  const outfile = path.join(work, `${name}.js`)
  await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    outfile,
    logLevel: 'warning',
  })
  return readFileSync(outfile)
}

const scripts = {
  tessera: readFileSync(process.env.BENCH_AGENT_FILE ?? 'public/agent.js'),
  ...(agentB ? { 'tessera-b': readFileSync(agentB) } : {}),
  fingerprintjs: await bundle(
    'fingerprintjs',
    "import FingerprintJS from '@fingerprintjs/fingerprintjs'; window.run = async () => { const agent = await FingerprintJS.load({ monitoring: false }); const result = await agent.get(); return Object.keys(result.components).length }",
  ),
  // The control: no agent, a timer as long as the page's `hold` parameter says.
  none: Buffer.from(
    "window.run = () => new Promise((resolve) => setTimeout(() => resolve(0), Number(new URLSearchParams(location.search).get('hold'))))",
  ),
  thumbmark: await bundle(
    'thumbmark',
    "import { getFingerprint, getFingerprintData, setOption } from '@thumbmarkjs/thumbmarkjs'; setOption('logging', false); window.run = async () => { await getFingerprint(); return Object.keys(await getFingerprintData()).length }",
  ),
}
const tesseraRunner =
  'Tessera.collect({ intlWorker: true }).then((result) => { window.durations = Object.fromEntries(Object.entries(result.components).map(([k, v]) => [k, v.duration]).concat([["(collect)", result.duration]])); window.slowest = Object.entries(result.components).map(([k, v]) => k + " " + v.duration).sort((a, b) => parseFloat(b.split(" ")[1]) - parseFloat(a.split(" ")[1])).slice(0, 6); return Object.keys(result.components).length })'
const runners = {
  tessera: tesseraRunner,
  'tessera-b': tesseraRunner,
  fingerprintjs: 'window.run()',
  none: 'window.run()',
  thumbmark: 'window.run()',
}

// An integrator's sign-up page: styles, a form, some text. The observers start before anything else;
// `start` is taken just before the agent's script, so its parse and evaluation count as its own.
function page(name) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign up — ${name}</title>
<script>
window.t0 = performance.now(); window.longTasks = []; window.firstInput = null
new PerformanceObserver((list) => { for (const task of list.getEntries()) window.longTasks.push([task.startTime, task.duration]) }).observe({ type: 'longtask', buffered: true })
new PerformanceObserver((list) => { const entry = list.getEntries()[0]; if (entry && !window.firstInput) window.firstInput = [entry.startTime, entry.processingStart - entry.startTime] }).observe({ type: 'first-input', buffered: true })
</script>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24}header,main{max-width:40rem;margin:auto;padding:1rem}
form{display:grid;gap:.75rem}label{display:grid;gap:.25rem}input,button{font:inherit;padding:.5rem}#probe{width:12rem}</style>
<script>window.start = performance.now()</script>
<script src="/${name}.js"></script></head><body>
<header><strong>Shop</strong> · <a href="#">Products</a> · <a href="#">Help</a></header>
<main><h1>Create your account</h1><p>Free delivery on your first order.</p>
<form onsubmit="return false"><label>Email <input type="email" autocomplete="email"></label>
<label>Password <input type="password" autocomplete="new-password"></label>
<button id="probe" type="button">Create account</button></form>
<p>By creating an account you agree to our terms. We never sell your data.</p></main>
<script>console.log('bench:collecting'); ${runners[name]}.then((count) => { window.benchResult = { end: performance.now(), count } },
  (error) => { window.benchResult = { error: String(error) } })</script></body></html>`
}

const server = createServer((request, response) => {
  const { pathname } = new URL(request.url, 'http://bench')
  const name = pathname.slice(1).replace(/\.(js|html)$/, '')
  if (!(name in scripts)) return response.writeHead(404).end()
  if (pathname.endsWith('.js'))
    return response.writeHead(200, { 'content-type': 'text/javascript' }).end(scripts[name])
  response.writeHead(200, { 'content-type': 'text/html' }).end(page(name))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`

/**
 * Each load gets a browser process of its own: a process kept between loads keeps its audio service
 * awake, its font matches and its GPU process' state, which a visitor's first sign-up page does not
 * find, and one agent's load would warm them for the next agent's.
 */
const launch = () => chromium.launch(chromiumLaunchOptions())

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** One load: the agent's result, its long tasks, and a click's input delay when it landed in time. */
async function measure(name, rate, clickAt, hold) {
  const browser = await launch()
  try {
    const context = await browser.newContext()
    const tab = await context.newPage()
    if (rate !== 1) {
      const cdp = await context.newCDPSession(tab)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
    }
    // The click goes in as soon as the page says it is collecting, after `clickAt` ms.
    const clicked = new Promise((resolve) => {
      tab.on('console', (message) => {
        if (message.text() !== 'bench:collecting') return
        sleep(clickAt)
          .then(() => tab.mouse.click(40, 300))
          .then(resolve, resolve)
      })
    })
    await tab.goto(`${origin}/${name}.html?hold=${Math.round(hold)}`, { waitUntil: 'commit' })
    const result = await tab
      .waitForFunction(() => window.benchResult, null, { timeout: 60_000 })
      .then((handle) => handle.jsonValue())
    if (result.error) throw new Error(`${name}: ${result.error}`)
    await clicked
    const seen = await tab
      .waitForFunction(() => window.firstInput, null, { timeout: 10_000 })
      .then((handle) => handle.jsonValue())
      .catch(() => null)
    const page = await tab.evaluate(() => ({
      t0: window.t0,
      start: window.start,
      longTasks: window.longTasks,
      durations: window.durations,
      slowest: window.slowest,
    }))
    const tasks = page.longTasks
      .filter(([begin, length]) => begin + length > page.start && begin < result.end)
      .map(([, length]) => length)
    return {
      wall: result.end - page.t0,
      count: result.count,
      longest: Math.max(0, ...tasks),
      longTasks: tasks.length,
      blocking: tasks.reduce((sum, length) => sum + Math.max(0, length - LONG_TASK_MS), 0),
      // Only a click that reached the page while the agent was still collecting counts.
      inputDelay: seen && seen[0] >= page.start && seen[0] < result.end ? seen[1] : undefined,
      durations: page.durations,
      slowest: page.slowest,
    }
  } finally {
    await browser.close()
  }
}

const runs = Object.fromEntries(
  rates.map((rate) => [rate, Object.fromEntries(agents.map((name) => [name, []]))]),
)
const counts = {}
const sourceDurations = {}
try {
  for (let round = 0; round < rounds; round++) {
    for (const rate of rates) {
      for (const name of agents.map((_, index) => agents[(index + round) % agents.length])) {
        // Clicks spread over the collection: the agent's median wall time so far at this rate.
        const earlier = runs[rate][name].map((run) => run.wall)
        const expected = earlier.length ? median(earlier) : 150 * rate
        const tessera = runs[rate].tessera.map((run) => run.wall)
        const hold = tessera.length ? median(tessera) : 250 * rate
        const run = await measure(name, rate, ((round % 5) / 5) * expected * 0.8, hold)
        runs[rate][name].push(run)
        counts[name] = run.count
        if (name === 'tessera' && rate === 1)
          for (const [source, ms] of Object.entries(run.durations ?? {})) {
            sourceDurations[source] ??= []
            sourceDurations[source].push(ms)
          }
        if (debug)
          console.log(
            `${rate}x ${name.padEnd(13)} wall ${run.wall.toFixed(0)} ms, longest ${run.longest.toFixed(0)} ms, ${run.longTasks} long, TBT ${run.blocking.toFixed(0)} ms, input delay ${run.inputDelay?.toFixed(0) ?? '-'}${run.slowest ? ` | ${run.slowest.join(', ')}` : ''}`,
          )
      }
    }
  }
} finally {
  server.close()
  rmSync(work, { recursive: true, force: true })
}

function median(values) {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
function p95(values) {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]
}
const gz = (name) => gzipSync(scripts[name]).length / 1024
const summary = (rate, name) => {
  const list = runs[rate][name]
  const delays = list.map((run) => run.inputDelay).filter((delay) => delay !== undefined)
  return {
    wall: median(list.map((run) => run.wall)),
    longest: median(list.map((run) => run.longest)),
    worstTask: Math.max(...list.map((run) => run.longest)),
    longTasks: median(list.map((run) => run.longTasks)),
    withLong: list.filter((run) => run.longTasks > 0).length,
    loads: list.length,
    blocking: median(list.map((run) => run.blocking)),
    delay: p95(delays),
    clicks: delays.length,
  }
}

console.log(`${rounds} loads per agent and CPU rate, alternating; a fresh browser process each.`)
console.log(
  '| agent | CPU | wall (median) | longest task (median / worst) | long tasks (median) | loads with one | TBT (median) | input delay p95 (clicks in collection) |',
)
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |')
for (const rate of rates)
  for (const name of agents) {
    const s = summary(rate, name)
    const label = name === 'none' ? 'page alone (control)' : name
    console.log(
      `| ${label} | ${rate}x | ${name === 'none' ? '-' : `${s.wall.toFixed(0)} ms`} | ${s.longest.toFixed(0)} / ${s.worstTask.toFixed(0)} ms | ${s.longTasks} | ${s.withLong} / ${s.loads} | ${s.blocking.toFixed(0)} ms | ${Number.isNaN(s.delay) ? '-' : `${s.delay.toFixed(0)} ms`} (${s.clicks}) |`,
    )
  }
for (const name of peers)
  console.log(`${name.padEnd(14)} ${gz(name).toFixed(2)} KB gz, ${counts[name]} signals`)
if (process.env.BENCH_SOURCES !== undefined) {
  const limit = Number(process.env.BENCH_SOURCES) || Infinity
  const ranked = Object.entries(sourceDurations)
    .map(([source, values]) => [source, median(values), Math.max(...values)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
  console.log('tessera sources by median duration, unthrottled (ms, median / max):')
  for (const [source, middle, max] of ranked)
    console.log(`  ${source.padEnd(24)} ${middle.toFixed(1).padStart(6)} / ${max.toFixed(1)}`)
}
const wall = (name) => summary(1, name).wall
const throttled = summary(4, 'tessera')
const alone = summary(4, 'none')
const ms = (value) => (Number.isNaN(value) ? '-' : value.toFixed(0))
const ratio = (value, peer) => (peer > 0 ? `${(value / peer).toFixed(2)}x` : value > 0 ? 'inf x' : '0x')
console.log(
  `agent: ${wall('tessera').toFixed(1)} ms median (${(wall('tessera') / wall('fingerprintjs')).toFixed(2)}x fingerprintjs, ${(wall('tessera') / wall('thumbmark')).toFixed(2)}x thumbmark), ${gz('tessera').toFixed(2)} KB gz (${(gz('tessera') / gz('fingerprintjs')).toFixed(2)}x fingerprintjs), ${counts.tessera} signals; blocking 4x: tessera longest ${throttled.longest.toFixed(0)} ms (a long task in ${throttled.withLong} of ${throttled.loads} loads), TBT ${throttled.blocking.toFixed(0)} ms (${ratio(throttled.blocking, summary(4, 'fingerprintjs').blocking)} fingerprintjs), input delay p95 ${ms(throttled.delay)} ms (page alone: a long task in ${alone.withLong} of ${alone.loads} loads, input delay p95 ${ms(alone.delay)} ms)`,
)
