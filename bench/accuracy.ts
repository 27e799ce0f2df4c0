// npm run bench:accuracy — re-identification and false merges over a corpus of device profiles
// driven by Playwright and system Chromium, for Tessera and, in the same pages, FingerprintJS 5's
// visitorId and ThumbmarkJS's hash. BENCH_QUICK=1 runs a few profiles as a smoke test.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Browser, type BrowserContextOptions, chromium, type Page } from '@playwright/test'
import { build } from 'esbuild'
import { chromiumArgs, findChromium } from '../tests/support/chromium'
import { removeServerFiles, startTesseraServer } from '../tests/support/tessera-server'

const quick = process.env.BENCH_QUICK === '1'
const work = mkdtempSync(path.join(tmpdir(), 'tessera-bench-accuracy-'))

const fontDirs = {
  dejavu: '/usr/share/fonts/truetype/dejavu',
  liberation: '/usr/share/fonts/truetype/liberation',
  lato: '/usr/share/fonts/truetype/lato',
  cantarell: '/usr/share/fonts/opentype/cantarell',
}

/**
 * Font sets through fontconfig: a browser sees only the fonts its configuration lists. Profiles
 * start with `full` or `small`; the "fonts changed" revisit removes a family from `full` or adds
 * one to `small`, giving sets no profile starts with (otherwise the changed device would be
 * indistinguishable from another profile, and any identifier would merge them).
 */
const fontSets = {
  full: [fontDirs.dejavu, fontDirs.liberation, fontDirs.lato],
  small: [fontDirs.dejavu, fontDirs.lato],
  fullLessLato: [fontDirs.dejavu, fontDirs.liberation],
  smallPlusCantarell: [fontDirs.dejavu, fontDirs.lato, fontDirs.cantarell],
} as const
const changedFonts = { full: 'fullLessLato', small: 'smallPlusCantarell' } as const

/** The bench's fonts come from Debian packages; installs them when missing (as root). */
function ensureFonts() {
  if (!existsSync(fontDirs.lato) || !existsSync(fontDirs.cantarell)) {
    console.log('Installing fonts-lato and fonts-cantarell (apt-get)…')
    execFileSync('apt-get', ['install', '-y', '-qq', 'fonts-lato', 'fonts-cantarell'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  }
}
type FontSet = keyof typeof fontSets

function fontconfig(set: FontSet): string {
  const file = path.join(work, `fonts-${set}.conf`)
  const dirs = fontSets[set].map((dir) => `<dir>${dir}</dir>`).join('')
  mkdirSync(path.join(work, `cache-${set}`), { recursive: true })
  writeFileSync(
    file,
    `<?xml version="1.0"?><fontconfig>${dirs}<cachedir>${work}/cache-${set}</cachedir></fontconfig>`,
  )
  return file
}

interface Profile {
  name: string
  fonts: 'full' | 'small'
  webgl: boolean
  options: BrowserContextOptions
}

const viewports = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 1536, height: 864 },
]
const locales = ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'pt-BR']
const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'America/Sao_Paulo']

/** 40 profiles: 4 browsers (fonts × WebGL) × 10 contexts differing in several dimensions each. */
function corpus(): Profile[] {
  const profiles: Profile[] = []
  for (const fonts of ['full', 'small'] as const) {
    for (const webgl of [true, false]) {
      for (let index = 0; index < 10; index++) {
        const viewport = viewports[index % 5] ?? { width: 1280, height: 800 }
        profiles.push({
          name: `${fonts}-${webgl ? 'gl' : 'nogl'}-${index}`,
          fonts,
          webgl,
          options: {
            viewport,
            screen: viewport,
            deviceScaleFactor: index < 5 ? 1 : 2,
            locale: locales[(index * 2) % 5],
            timezoneId: zones[(index * 3) % 5],
            colorScheme: index % 2 ? 'dark' : 'light',
            reducedMotion: index % 3 ? 'no-preference' : 'reduce',
          },
        })
      }
    }
  }
  return quick ? profiles.filter((_, index) => index % 10 === 0) : profiles
}

const browsers = new Map<string, Browser>()
async function browserFor(fonts: FontSet, webgl: boolean): Promise<Browser> {
  const key = `${fonts}-${webgl}`
  let browser = browsers.get(key)
  if (!browser) {
    browser = await chromium.launch({
      executablePath: findChromium(),
      args: [...chromiumArgs, ...(webgl ? [] : ['--disable-webgl', '--disable-3d-apis'])],
      env: { ...process.env, FONTCONFIG_FILE: fontconfig(fonts) },
    })
    browsers.set(key, browser)
  }
  return browser
}

const userAgents = new Map<Browser, string>()
async function userAgentOf(browser: Browser): Promise<string> {
  let userAgent = userAgents.get(browser)
  if (!userAgent) {
    const context = await browser.newContext()
    userAgent = await (await context.newPage()).evaluate(() => navigator.userAgent)
    await context.close()
    userAgents.set(browser, userAgent)
  }
  return userAgent
}

let peers = ''
async function bundlePeers() {
  const result = await build({
    stdin: {
      contents: `import FingerprintJS from '@fingerprintjs/fingerprintjs'
        import { getFingerprint, setOption } from '@thumbmarkjs/thumbmarkjs'
        setOption('logging', false)
        window.peerIds = async () => {
          const [fp, thumb] = await Promise.all([FingerprintJS.load({ monitoring: false }).then((agent) => agent.get()), getFingerprint()])
          return { fingerprintjs: fp.visitorId, thumbmark: thumb }
        }`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    minify: true,
    format: 'iife',
    write: false,
    logLevel: 'warning',
  })
  peers = result.outputFiles[0]?.text ?? ''
}

interface Visit {
  tessera: string
  confidence: number
  fingerprintjs: string
  thumbmark: string
}

async function visit(page: Page, url: string): Promise<Visit> {
  await page.goto(`${url}/device-fingerprint`)
  const id = page.getByTestId('visitor-id')
  await id.waitFor({ timeout: 20_000 })
  const tessera = ((await id.textContent()) ?? '').trim()
  const confidence =
    Number(((await page.getByTestId('confidence').textContent()) ?? '0').replace('%', '')) / 100
  await page.addScriptTag({ content: peers })
  const ids = await page.evaluate(() =>
    (window as unknown as { peerIds(): Promise<{ fingerprintjs: string; thumbmark: string }> }).peerIds(),
  )
  return { tessera, confidence, ...ids }
}

async function main() {
  ensureFonts()
  await bundlePeers()
  const server = await startTesseraServer({ port: 3421, env: { TESSERA_LOG_LEVEL: 'warn' } })
  const profiles = corpus()
  const firsts = new Map<string, Visit>()
  const revisits: { profile: string; scenario: string; visit: Visit }[] = []
  try {
    for (const profile of profiles) {
      const browser = await browserFor(profile.fonts, profile.webgl)
      const context = await browser.newContext(profile.options)
      const page = await context.newPage()
      const first = await visit(page, server.url)
      firsts.set(profile.name, first)
      const storage = await context.storageState()
      const record = (scenario: string, result: Visit) =>
        revisits.push({ profile: profile.name, scenario, visit: result })

      record('plain revisit', await visit(page, server.url))
      await context.clearCookies()
      await page.evaluate(async () => {
        localStorage.clear()
        await new Promise((resolve) => {
          const request = indexedDB.deleteDatabase('tessera')
          request.onsuccess = request.onerror = request.onblocked = resolve
        })
      })
      record('cookies and storage cleared', await visit(page, server.url))
      await context.close()

      const inNewContext = async (
        scenario: string,
        options: BrowserContextOptions,
        keepStorage: boolean,
        on = browser,
      ) => {
        const next = await on.newContext({
          ...profile.options,
          ...options,
          ...(keepStorage ? { storageState: storage } : {}),
        })
        record(scenario, await visit(await next.newPage(), server.url))
        await next.close()
      }
      const userAgent = await userAgentOf(browser)
      await inNewContext('new incognito context', {}, false)
      await inNewContext(
        'browser version bump',
        {
          userAgent: userAgent.replace(
            /Chrome\/(\d+)/,
            (_match: string, major: string) => `Chrome/${Number(major) + 1}`,
          ),
        },
        true,
      )
      const size = profile.options.viewport ?? { width: 1280, height: 800 }
      await inNewContext(
        'window resized',
        { viewport: { width: size.width - 200, height: size.height - 100 } },
        true,
      )
      await inNewContext(
        'timezone changed',
        {
          timezoneId: profile.options.timezoneId === 'Pacific/Auckland' ? 'Africa/Cairo' : 'Pacific/Auckland',
        },
        true,
      )
      await inNewContext(
        'language changed',
        { locale: profile.options.locale === 'it-IT' ? 'es-ES' : 'it-IT' },
        true,
      )
      await inNewContext(
        'fonts changed',
        {},
        true,
        await browserFor(changedFonts[profile.fonts], profile.webgl),
      )
      process.stdout.write('.')
    }
  } finally {
    for (const browser of browsers.values()) await browser.close()
    await server.stop()
    removeServerFiles(server)
    rmSync(work, { recursive: true, force: true })
  }
  console.log('')

  const libraries = ['tessera', 'fingerprintjs', 'thumbmark'] as const
  const summary: Record<string, { reid: number; fm: number }> = {}
  for (const library of libraries) {
    const same = revisits.filter(
      (entry) => entry.visit[library] === firsts.get(entry.profile)?.[library],
    ).length
    // A false merge: two different profiles that ever got the same ID.
    const idsOf = new Map<string, Set<string>>()
    for (const [name, first] of firsts) idsOf.set(name, new Set([first[library]]))
    for (const entry of revisits) idsOf.get(entry.profile)?.add(entry.visit[library])
    const names = [...idsOf.keys()]
    let pairs = 0
    let merged = 0
    for (let a = 0; a < names.length; a++) {
      for (let b = a + 1; b < names.length; b++) {
        pairs++
        const left = idsOf.get(names[a] ?? '') ?? new Set()
        if ([...(idsOf.get(names[b] ?? '') ?? [])].some((id) => left.has(id))) {
          merged++
          if (process.env.BENCH_DEBUG) console.log(`  ${library} merged ${names[a]} and ${names[b]}`)
        }
      }
    }
    summary[library] = { reid: (100 * same) / revisits.length, fm: pairs ? (100 * merged) / pairs : 0 }
  }

  console.log(
    `${profiles.length} profiles, ${revisits.length} revisits. Re-identification by scenario (tessera / fingerprintjs / thumbmark):`,
  )
  for (const scenario of [...new Set(revisits.map((entry) => entry.scenario))]) {
    const rows = revisits.filter((entry) => entry.scenario === scenario)
    const rate = (library: (typeof libraries)[number]) =>
      `${((100 * rows.filter((entry) => entry.visit[library] === firsts.get(entry.profile)?.[library]).length) / rows.length).toFixed(0)}%`
    console.log(
      `  ${scenario.padEnd(28)} ${rate('tessera')} / ${rate('fingerprintjs')} / ${rate('thumbmark')}`,
    )
  }
  console.log('Confidence calibration (Tessera, revisits answered with score >= s: observed precision):')
  for (const threshold of [0.5, 0.6, 0.7, 0.8, 0.9, 0.95]) {
    const answered = revisits.filter((entry) => entry.visit.confidence >= threshold)
    const correct = answered.filter(
      (entry) => entry.visit.tessera === firsts.get(entry.profile)?.tessera,
    ).length
    console.log(
      `  s >= ${threshold.toFixed(2)}: ${answered.length} answers, precision ${answered.length ? ((100 * correct) / answered.length).toFixed(1) : '-'}%`,
    )
  }
  const format = (library: string) =>
    `reid ${summary[library]?.reid.toFixed(1)}% fm ${summary[library]?.fm.toFixed(1)}%`
  console.log(
    `accuracy: tessera ${format('tessera')} | fingerprintjs ${format('fingerprintjs')} | thumbmark ${format('thumbmark')}`,
  )
}

await main()
