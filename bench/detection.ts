// npm run bench:detection — the bot detector against a corpus of real browsers. Each browser opens
// /device-fingerprint on a fresh production server (embedded PGlite in a temporary directory);
// afterwards the stored events are read back from the database. Automated browsers (Playwright,
// Puppeteer, puppeteer-extra's stealth plugin, Selenium, Firefox over WebDriver BiDi) must be
// flagged `bad`; Chromium and Firefox started from the command line under Xvfb, with nothing
// attached, must not be. Each visit carries `?bench=<name>` in its URL (stored with the event).
// BENCH_QUICK=1 runs headless Playwright and one uncontrolled Chromium (a CI smoke run).
// Installs xvfb, firefox-esr and chromium-driver from Debian when missing (as root).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { chromium } from '@playwright/test'
import { sql } from 'drizzle-orm'
import puppeteer from 'puppeteer-core'
import { addExtra } from 'puppeteer-extra'
import StealthPlugin from 'puppeteer-extra-plugin-stealth'
import { Builder } from 'selenium-webdriver'
import { Options as ChromeOptions, ServiceBuilder } from 'selenium-webdriver/chrome.js'
import { openDatabase, type RowOf, selectRows } from '../src/server/db/client'
import { eventSignals } from '../src/server/db/packed-signals'
import * as schema from '../src/server/db/schema'
import { chromiumArgs, findChromium } from '../tests/support/chromium'
import { assertProductionBuild, removeServerFiles, startTesseraServer } from '../tests/support/tessera-server'

const quick = process.env.BENCH_QUICK === '1'
const port = Number(process.env.BENCH_PORT ?? 3420)
const password = 'bench detection operator password'
const visitTimeout = 60_000
const log = (line: string) => console.log(line)

interface Visit {
  /** Opens `url` and resolves once the page has shown its visitor ID (or the event is stored). */
  run(url: string, context: Context): Promise<void>
  automated: boolean
}

interface Context {
  display: string
  chromiumPath: string
  /** Resolves once an event for this bench name is stored (for browsers nothing drives). */
  stored(name: string): Promise<void>
}

const withDisplay = (context: Context) => ({ ...process.env, DISPLAY: context.display })

/** A temporary directory that is removed after `fn`, whatever happens. */
async function withTemporaryDirectory<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  try {
    return await fn(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/** Playwright's Chromium: headless, or headful on the bench's X display. */
async function runPlaywright(url: string, context: Context, headless: boolean) {
  const browser = await chromium.launch({
    executablePath: context.chromiumPath,
    args: chromiumArgs,
    headless,
    ...(headless ? {} : { env: withDisplay(context) }),
  })
  try {
    const page = await browser.newPage()
    await page.goto(url)
    await page.getByTestId('visitor-id').waitFor({ timeout: visitTimeout })
  } finally {
    await browser.close()
  }
}

const corpus: Record<string, Visit> = {
  'playwright-chromium-headless': {
    automated: true,
    run: (url, context) => runPlaywright(url, context, true),
  },
  'playwright-chromium-headful': {
    automated: true,
    run: (url, context) => runPlaywright(url, context, false),
  },
  'puppeteer-chromium-headless': {
    automated: true,
    async run(url, context) {
      await visitWithPuppeteer(
        puppeteer.launch({
          executablePath: context.chromiumPath,
          args: chromiumArgs,
          headless: true,
        }),
        url,
      )
    },
  },
  'puppeteer-extra-stealth-headless': {
    automated: true,
    run: (url, context) => runStealth(url, context, true),
  },
  'puppeteer-extra-stealth-headful': {
    automated: true,
    run: (url, context) => runStealth(url, context, false),
  },
  'selenium-chromedriver': {
    automated: true,
    async run(url, context) {
      const options = new ChromeOptions().setChromeBinaryPath(context.chromiumPath)
      options.addArguments(...chromiumArgs)
      const service = new ServiceBuilder('/usr/bin/chromedriver').setEnvironment(withDisplay(context))
      const driver = await new Builder()
        .forBrowser('chrome')
        .setChromeOptions(options)
        .setChromeService(service)
        .build()
      try {
        await driver.get(url)
        const deadline = Date.now() + visitTimeout
        while (
          !(await driver.executeScript('return !!document.querySelector(\'[data-testid="visitor-id"]\')'))
        ) {
          if (Date.now() > deadline) throw new Error('no visitor ID shown')
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
      } finally {
        await driver.quit()
      }
    },
  },
  'puppeteer-firefox-bidi': {
    automated: true,
    async run(url) {
      await visitWithPuppeteer(
        puppeteer.launch({
          browser: 'firefox',
          executablePath: '/usr/bin/firefox-esr',
          headless: true,
        }),
        url,
      )
    },
  },
  'uncontrolled-chromium': {
    automated: false,
    run: (url, context) =>
      withTemporaryDirectory('tessera-bench-chromium-', (profile) =>
        runUncontrolled(
          context.chromiumPath,
          [
            // Root cannot run Chromium's sandbox; the rest only keeps it quiet and offline.
            ...chromiumArgs.filter((flag) => flag !== '--disable-gpu'),
            '--no-default-browser-check',
            `--user-data-dir=${profile}`,
            url,
          ],
          context,
          'uncontrolled-chromium',
        ),
      ),
  },
  'uncontrolled-firefox': {
    automated: false,
    run: (url, context) =>
      withTemporaryDirectory('tessera-bench-firefox-', (profile) => {
        // First-run pages and update checks only: nothing that changes what a page can see.
        writeFileSync(
          path.join(profile, 'user.js'),
          [
            'user_pref("browser.aboutwelcome.enabled", false);',
            'user_pref("browser.startup.homepage_override.mstone", "ignore");',
            'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
            'user_pref("app.update.auto", false);',
            'user_pref("browser.shell.checkDefaultBrowser", false);',
            '',
          ].join('\n'),
        )
        return runUncontrolled(
          '/usr/bin/firefox-esr',
          ['--no-remote', '--new-instance', '--profile', profile, url],
          context,
          'uncontrolled-firefox',
        )
      }),
  },
}

/** A browser Puppeteer drives (puppeteer-core's or puppeteer-extra's). */
interface PuppeteerBrowser {
  newPage(): Promise<{
    goto(url: string): Promise<unknown>
    waitForSelector(selector: string, options: { timeout: number }): Promise<unknown>
  }>
  close(): Promise<void>
}

/** Opens the page in a Puppeteer-driven browser until the visitor ID shows, then closes it. */
async function visitWithPuppeteer(launching: Promise<PuppeteerBrowser>, url: string) {
  const browser = await launching
  try {
    const page = await browser.newPage()
    await page.goto(url)
    await page.waitForSelector('[data-testid="visitor-id"]', { timeout: visitTimeout })
  } finally {
    await browser.close()
  }
}

/** puppeteer-extra with the stealth plugin's every evasion, as scrapers run it. */
async function runStealth(url: string, context: Context, headless: boolean) {
  const stealthy = addExtra(puppeteer)
  stealthy.use(StealthPlugin())
  await visitWithPuppeteer(
    stealthy.launch({
      executablePath: context.chromiumPath,
      args: chromiumArgs,
      headless,
      env: withDisplay(context),
    }),
    url,
  )
}

/** Starts a browser as a person would, waits for its event, then stops its whole process group. */
async function runUncontrolled(binary: string, args: string[], context: Context, name: string) {
  const child = spawn(binary, args, { env: withDisplay(context), detached: true, stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    await Promise.race([
      context.stored(name),
      exited.then(() => {
        throw new Error(`${binary} exited early`)
      }),
    ])
  } finally {
    if (child.exitCode === null && child.pid) {
      process.kill(-child.pid, 'SIGKILL')
      await exited
    }
    // Helper processes may still hold the profile for a moment.
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}

function hasCommand(command: string) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

/** Xvfb, Firefox ESR and chromedriver from Debian, installed once when missing (as scripts/test.sh does). */
function ensureDebianPackages() {
  const wanted: [command: string, pkg: string][] = quick
    ? [['Xvfb', 'xvfb']]
    : [
        ['Xvfb', 'xvfb'],
        ['firefox-esr', 'firefox-esr'],
        ['chromedriver', 'chromium-driver'],
      ]
  const missing = wanted.filter(([command]) => !hasCommand(command)).map(([, pkg]) => pkg)
  if (!hasCommand('chromium') && !process.env.CHROMIUM_PATH) missing.push('chromium')
  if (missing.length === 0) return
  if (process.getuid?.() !== 0) throw new Error(`Install these Debian packages first: ${missing.join(' ')}`)
  log(`Installing ${missing.join(', ')} from Debian (once)…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  })
}

/** An X server for the headful browsers, on the first free display number. */
async function startXvfb(): Promise<{ display: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] },
  )
  const display = await new Promise<string>((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), 15_000)
    ;(child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes('\n')) {
        clearTimeout(timer)
        resolve(`:${text.trim()}`)
      }
    })
    child.once('exit', () => reject(new Error('Xvfb exited')))
  })
  return {
    display,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** An operator session on the bench server, to watch events arrive. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  })
  const cookie = response.headers.get('set-cookie')?.split(';')[0]
  if (!response.ok || !cookie) throw new Error(`sign-in failed: ${response.status}`)
  return cookie
}

function watchEvents(url: string, cookie: string) {
  return async (name: string) => {
    const deadline = Date.now() + visitTimeout
    while (Date.now() < deadline) {
      const response = await fetch(`${url}/api/console/events?signal=all`, { headers: { cookie } })
      const page = (await response.json()) as { events: { url: string | null }[] }
      if (page.events.some((event) => event.url?.endsWith(`bench=${name}`))) return
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    throw new Error('no event stored')
  }
}

type StoredEvent = RowOf<{ url: typeof schema.events.url; signals: ReturnType<typeof eventSignals> }>

async function main() {
  assertProductionBuild()
  ensureDebianPackages()
  const names = Object.keys(corpus).filter(
    (name) => !quick || name === 'playwright-chromium-headless' || name === 'uncontrolled-chromium',
  )
  const xvfb = await startXvfb()
  const server = await startTesseraServer({
    port,
    dataDir: mkdtempSync(path.join(tmpdir(), 'tessera-bench-detection-')),
    env: { TESSERA_ADMIN_PASSWORD: password, TESSERA_LOG_LEVEL: 'warn' },
  })
  const failures = new Map<string, string>()
  let events: StoredEvent[] = []
  try {
    const context: Context = {
      display: xvfb.display,
      chromiumPath: findChromium(),
      stored: watchEvents(server.url, await signIn(server.url)),
    }
    for (const name of names) {
      const started = performance.now()
      try {
        await corpus[name]?.run(`${server.url}/device-fingerprint?bench=${name}`, context)
        log(`${name.padEnd(34)} visited in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      } catch (error) {
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
        failures.set(name, message ?? 'failed')
        log(`${name.padEnd(34)} FAILED: ${message}`)
      }
    }
    await server.stop()
    // Read back what the server stored, from its own database (one process per PGlite directory).
    const handle = await openDatabase({ dataDir: path.join(server.dataDir, 'db') })
    try {
      events = await selectRows(
        handle.db,
        { url: schema.events.url, signals: eventSignals() },
        (select) => sql`select ${select} from events where url like '%bench=%' order by created_at`,
      )
    } finally {
      await handle.close()
    }
  } finally {
    await server.stop()
    if (failures.size > 0) {
      // The server's own account of a failed visit, before its files go.
      const lines = readFileSync(server.logFile, 'utf8').trim().split('\n')
      log(`Last lines of the server log:\n${lines.slice(-15).join('\n')}`)
    }
    removeServerFiles(server)
    await xvfb.stop()
  }

  let automated = 0
  let automatedFlagged = 0
  let uncontrolled = 0
  let uncontrolledFlagged = 0
  for (const name of names) {
    const visit = corpus[name]
    if (!visit) continue
    const event = events.find((entry) => entry.url?.endsWith(`bench=${name}`))
    const bot = event?.signals.bot
    const flagged = bot?.result === 'bad'
    if (visit.automated) {
      automated++
      if (flagged) automatedFlagged++
    } else {
      uncontrolled++
      if (flagged) uncontrolledFlagged++
    }
    const verdict = !event
      ? `no event (${failures.get(name) ?? 'not stored'})`
      : `${bot?.result ?? 'no bot signal'}${bot?.kind ? ` (${bot.kind})` : ''}`
    const ok = !event ? 'FAIL' : flagged === visit.automated ? 'ok  ' : 'MISS'
    log(`${ok} ${name.padEnd(34)} ${verdict}`)
    for (const reason of bot?.reasons ?? []) log(`       - ${reason}`)
  }
  console.log(
    `detection: ${automatedFlagged}/${automated} automated flagged, ${uncontrolledFlagged}/${uncontrolled} uncontrolled flagged (false positives)`,
  )
}

await main()
