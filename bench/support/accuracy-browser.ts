// One visit of bench:accuracy: a new Chromium process on a profile directory, showing a device
// state, opening /device-fingerprint; what Tessera saw and answered is read from the page's own
// POST /api/v1/identify, and FingerprintJS 5 and ThumbmarkJS run afterwards in the same page.
import { chromium } from '@playwright/test'
import { build } from 'esbuild'
import { chromiumArgs, findChromium } from '../../tests/support/chromium'
import type { DeviceState } from './accuracy-corpus'
import { fontconfigFile } from './accuracy-fonts'

export interface Visit {
  visitorId: string
  requestId: string
  confidence: number
  /** The identify request's components, as the agent sent them. */
  components: Record<string, unknown>
  fingerprintjs?: string
  thumbmark?: string
}

const gpuFlags: Record<DeviceState['gpu'], string[]> = {
  webgl2: [],
  webgl1: ['--disable-webgl2'],
  none: ['--disable-webgl', '--disable-3d-apis'],
}

/** Bundles FingerprintJS and ThumbmarkJS into one script that defines `window.peerIds()`. */
export async function bundlePeers(): Promise<string> {
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
  return result.outputFiles[0]?.text ?? ''
}

/** Client hints of the installed Chromium, read once, so a version bump can claim the next major. */
export interface BrowserIdentity {
  userAgent: string
  metadata: Omit<HighEntropyValues, 'uaFullVersion'> & { fullVersion: string }
}

interface HighEntropyValues {
  brands: { brand: string; version: string }[]
  fullVersionList: { brand: string; version: string }[]
  uaFullVersion: string
  platform: string
  platformVersion: string
  architecture: string
  model: string
  mobile: boolean
  bitness: string
  wow64: boolean
}

export async function readBrowserIdentity(url: string, dir: string): Promise<BrowserIdentity> {
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: findChromium(),
    args: chromiumArgs,
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    // Client hints exist only in a secure context: a page of the (local) Tessera server.
    await page.goto(`${url}/api/health`)
    const { userAgent, values } = await page.evaluate(async () => {
      const data = (
        navigator as Navigator & {
          userAgentData?: { getHighEntropyValues(hints: string[]): Promise<unknown> }
        }
      ).userAgentData
      const hints = [
        'platformVersion',
        'architecture',
        'model',
        'bitness',
        'fullVersionList',
        'uaFullVersion',
        'wow64',
      ]
      return {
        userAgent: navigator.userAgent,
        values: data ? await data.getHighEntropyValues(hints) : undefined,
      }
    })
    if (!values) throw new Error('This Chromium has no navigator.userAgentData')
    const { uaFullVersion, ...rest } = values as HighEntropyValues
    return { userAgent, metadata: { ...rest, fullVersion: uaFullVersion } }
  } finally {
    await context.close()
  }
}

/** The identity Chromium `bump` major versions later: user agent and client hints alike. */
function bumpedIdentity(identity: BrowserIdentity, bump: number) {
  const major = (version: string) => version.replace(/^\d+/, (value) => String(Number(value) + bump))
  const isChromium = (brand: string) => /Chrom/.test(brand)
  const list = (brands: { brand: string; version: string }[]) =>
    brands.map((entry) => (isChromium(entry.brand) ? { ...entry, version: major(entry.version) } : entry))
  return {
    userAgent: identity.userAgent.replace(
      /Chrome\/(\d+)/,
      (_match, value: string) => `Chrome/${Number(value) + bump}`,
    ),
    userAgentMetadata: {
      ...identity.metadata,
      brands: list(identity.metadata.brands),
      fullVersionList: list(identity.metadata.fullVersionList),
      fullVersion: major(identity.metadata.fullVersion),
    },
  }
}

export interface VisitOptions {
  url: string
  userDataDir: string
  work: string
  identity: BrowserIdentity
  peers?: string
}

/** Launches Chromium showing `state`, opens /device-fingerprint and returns what was identified. */
export async function visit(state: DeviceState, options: VisitOptions): Promise<Visit> {
  const context = await chromium.launchPersistentContext(options.userDataDir, {
    executablePath: findChromium(),
    // --accept-lang is navigator.languages; Intl's locale is set below (Playwright's `locale`
    // option would reduce navigator.languages to that one locale).
    args: [...chromiumArgs, ...gpuFlags[state.gpu], `--accept-lang=${state.languages.join(',')}`],
    env: { ...process.env, FONTCONFIG_FILE: fontconfigFile(options.work, state.fonts) },
    viewport: state.window,
    screen: state.screen,
    deviceScaleFactor: state.scale,
    timezoneId: state.timezone,
    colorScheme: state.colorScheme,
    reducedMotion: state.reducedMotion,
    contrast: state.contrast,
    forcedColors: state.forcedColors,
    extraHTTPHeaders: { 'X-Forwarded-For': state.address },
    // The peers are injected into Tessera's own page, whose Content-Security-Policy (rightly)
    // refuses inline scripts.
    bypassCSP: true,
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    const session = await context.newCDPSession(page)
    await session.send('Emulation.setLocaleOverride', { locale: state.locale })
    if (state.versionBump > 0)
      await session.send('Emulation.setUserAgentOverride', {
        ...bumpedIdentity(options.identity, state.versionBump),
        acceptLanguage: state.languages.join(','),
      })
    const identified = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/identify') && response.request().method() === 'POST',
      { timeout: 60_000 },
    )
    await page.goto(`${options.url}/device-fingerprint`)
    const response = await identified
    const sent = response.request().postDataJSON() as { components: Record<string, unknown> }
    const answer = (await response.json()) as {
      visitorId: string
      requestId: string
      confidence: { score: number }
    }
    if (!response.ok()) throw new Error(`identify answered ${response.status()}`)
    const result: Visit = {
      visitorId: answer.visitorId,
      requestId: answer.requestId,
      confidence: answer.confidence.score,
      components: sent.components,
    }
    // The page stores the token after the answer; wait until it shows the ID, so a kept profile
    // directory holds it for the next launch.
    await page.getByTestId('visitor-id').waitFor({ timeout: 30_000 })
    if (!options.peers) return result
    await page.addScriptTag({ content: options.peers })
    const peers = await page.evaluate(() =>
      (window as unknown as { peerIds(): Promise<{ fingerprintjs: string; thumbmark: string }> }).peerIds(),
    )
    return { ...result, ...peers }
  } finally {
    await context.close()
  }
}
