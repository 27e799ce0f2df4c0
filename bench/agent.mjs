// npm run bench:agent — Tessera's agent against FingerprintJS 5 and ThumbmarkJS 1 in headless
// system Chromium: one page per library from a local static server, loaded in alternation
// (A B C A B C …), timed inside the page from the first script to the result.
// BENCH_QUICK=1 runs 3 rounds (a CI smoke run). BENCH_DEBUG=1 prints each Tessera load's slowest
// sources; BENCH_SOURCES=<n> prints the n sources with the highest median duration (0 = all).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { build } from 'esbuild'

const rounds = process.env.BENCH_QUICK === '1' ? 3 : Number(process.env.BENCH_ROUNDS ?? 30)
const work = mkdtempSync(path.join(tmpdir(), 'tessera-bench-agent-'))

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
  tessera: readFileSync('public/agent.js'),
  fingerprintjs: await bundle(
    'fingerprintjs',
    "import FingerprintJS from '@fingerprintjs/fingerprintjs'; window.run = async () => { const agent = await FingerprintJS.load({ monitoring: false }); const result = await agent.get(); return Object.keys(result.components).length }",
  ),
  thumbmark: await bundle(
    'thumbmark',
    "import { getFingerprint, getFingerprintData, setOption } from '@thumbmarkjs/thumbmarkjs'; setOption('logging', false); window.run = async () => { await getFingerprint(); return Object.keys(await getFingerprintData()).length }",
  ),
}
const runners = {
  tessera:
    '(window.tRun = performance.now() - window.t0, Tessera.collect()).then((result) => { window.durations = Object.fromEntries(Object.entries(result.components).map(([k, v]) => [k, v.duration]).concat([["(collect)", result.duration], ["(before collect)", Math.round(window.tRun * 10) / 10]])); window.slowest = Object.entries(result.components).map(([k, v]) => k + " " + v.duration).sort((a, b) => parseFloat(b.split(" ")[1]) - parseFloat(a.split(" ")[1])).slice(0, 6); return Object.keys(result.components).length })',
  fingerprintjs: 'window.run()',
  thumbmark: 'window.run()',
}

function page(name) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title>
<script>window.t0 = performance.now()</script>
<script src="/${name}.js"></script></head><body><p>bench</p>
<script>${runners[name]}.then((count) => { window.benchResult = { ms: performance.now() - window.t0, count } },
  (error) => { window.benchResult = { error: String(error) } })</script></body></html>`
}

const server = createServer((request, response) => {
  const name = request.url.slice(1).replace(/\.(js|html)$/, '')
  if (!(name in scripts)) return response.writeHead(404).end()
  if (request.url.endsWith('.js'))
    return response.writeHead(200, { 'content-type': 'text/javascript' }).end(scripts[name])
  response.writeHead(200, { 'content-type': 'text/html' }).end(page(name))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`

const executablePath =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync)
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
})
const times = { tessera: [], fingerprintjs: [], thumbmark: [] }
const counts = {}
const sourceDurations = {}
try {
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(times)) {
      const context = await browser.newContext()
      const tab = await context.newPage()
      await tab.goto(`${origin}/${name}.html`)
      const result = await tab
        .waitForFunction(() => window.benchResult, null, { timeout: 30_000 })
        .then((handle) => handle.jsonValue())
      if (result.error) throw new Error(`${name}: ${result.error}`)
      times[name].push(result.ms)
      if (name === 'tessera')
        for (const [source, ms] of Object.entries(await tab.evaluate(() => window.durations))) {
          sourceDurations[source] ??= []
          sourceDurations[source].push(ms)
        }
      if (process.env.BENCH_DEBUG && name === 'tessera')
        console.log(Math.round(result.ms), await tab.evaluate(() => window.slowest.join(', ')))
      counts[name] = result.count
      await context.close()
    }
  }
} finally {
  await browser.close()
  server.close()
  rmSync(work, { recursive: true, force: true })
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const gz = (name) => gzipSync(scripts[name]).length / 1024
for (const name of Object.keys(times)) {
  console.log(
    `${name.padEnd(14)} median ${median(times[name]).toFixed(1)} ms over ${times[name].length} loads, ${gz(name).toFixed(2)} KB gz, ${counts[name]} signals`,
  )
}
if (process.env.BENCH_SOURCES !== undefined) {
  const limit = Number(process.env.BENCH_SOURCES) || Infinity
  const ranked = Object.entries(sourceDurations)
    .map(([source, values]) => [source, median(values), Math.max(...values)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
  console.log('tessera sources by median duration (ms, median / max):')
  for (const [source, middle, max] of ranked)
    console.log(`  ${source.padEnd(24)} ${middle.toFixed(1).padStart(6)} / ${max.toFixed(1)}`)
}
const tessera = median(times.tessera)
console.log(
  `agent: ${tessera.toFixed(1)} ms median (${(tessera / median(times.fingerprintjs)).toFixed(2)}x fingerprintjs, ${(tessera / median(times.thumbmark)).toFixed(2)}x thumbmark), ${gz('tessera').toFixed(2)} KB gz (${(gz('tessera') / gz('fingerprintjs')).toFixed(2)}x fingerprintjs), ${counts.tessera} signals`,
)
