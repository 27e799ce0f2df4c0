import type { BotSignal } from '@/contracts/signals'
import { detectInconsistency } from './detect-inconsistency'
import type { ComponentReader } from './read-components'
import type { RequestEvidence } from './request-evidence'
import { readStealthTraces } from './stealth-traces'

const declaredCrawlers =
  /(Googlebot|bingbot|DuckDuckBot|Baiduspider|YandexBot|Applebot|facebookexternalhit|Twitterbot|LinkedInBot|Slackbot|Discordbot)/i

const globalKinds: [RegExp, string][] = [
  [/^__pw|__playwright/, 'Playwright'],
  [/puppeteer/i, 'Puppeteer'],
  [/cdc_|selenium|webdriver|__driver|__fxdriver/i, 'Selenium/WebDriver'],
  [/phantom/i, 'PhantomJS-like'],
  [/__nightmare/, 'Nightmare'],
  [/^(process|Buffer|spawn|emit)$/, 'Electron'],
  [/domAutomation/, 'Chromium automation'],
]

/**
 * Bot and automation detection from many independent probes. A strong probe is enough on its own;
 * weak ones count only together, so patching one probe (as stealth plugins do) hides nothing and
 * an ordinary browser with one oddity is not flagged. With the request's own evidence (its
 * headers, the shapes of its components), whether a browser sent it at all (detect-inconsistency.ts).
 */
export function detectBot(read: ComponentReader, evidence?: RequestEvidence): BotSignal {
  const userAgent = read.string('userAgent') ?? ''
  const crawler = declaredCrawlers.exec(userAgent)
  if (crawler)
    return {
      result: 'good',
      kind: crawler[1],
      reasons: [`The browser declares itself as the crawler ${crawler[1]}.`],
    }

  const { strong, weak } = evidence ? detectInconsistency(read, evidence) : { strong: [], weak: [] }

  if (read.boolean('webdriver') === true) {
    strong.push({
      reason: 'The browser reports that it is controlled by automation (navigator.webdriver).',
      kind: 'WebDriver',
    })
  }
  if (/HeadlessChrome/.test(userAgent)) {
    strong.push({ reason: 'The user agent names headless Chrome.', kind: 'Headless Chromium' })
  }
  const brands = read.field('userAgentData', 'fullVersionList')
  if (Array.isArray(brands) && JSON.stringify(brands).includes('HeadlessChrome')) {
    strong.push({ reason: 'The client hints name headless Chrome.', kind: 'Headless Chromium' })
  }
  if (/Electron\//.test(userAgent))
    strong.push({ reason: 'The user agent names Electron.', kind: 'Electron' })
  for (const name of read.strings('automationGlobals')) {
    const kind =
      globalKinds.find(([pattern]) => pattern.test(name.replace(/^document\./, '')))?.[1] ?? 'automation'
    strong.push({ reason: `An automation tool left "${name}" in the page.`, kind })
  }
  const replaced = read.strings('nativeFunctions')
  const traces = readStealthTraces(read)
  if (
    replaced.some(
      (name) => name.startsWith('navigator.webdriver') || name === 'navigator (own properties)',
    ) ||
    traces.proxied.includes('navigator.webdriver')
  ) {
    strong.push({
      reason: 'The automation flag was patched to hide automation (stealth plugin).',
      kind: 'Stealth automation',
    })
  }

  if (traces.fakeFrameWindow) {
    strong.push({
      reason: 'Frames hand out a fake window object (the stealth plugin patches iframe.contentWindow).',
      kind: 'Stealth automation',
    })
  }
  if (traces.proxied.length > 0) {
    weak.push(
      `Built-in functions are wrapped in Proxies that pass toString checks (${traces.proxied.slice(0, 4).join(', ')}), as stealth plugins do.`,
    )
  }
  if (traces.outerSizeOverwritten) {
    weak.push('The outer window size was overwritten with plain values, as stealth plugins do.')
  }

  const outer = read.field('windowGeometry', 'outer')
  const inner = read.field('windowGeometry', 'inner')
  if (Array.isArray(outer) && Array.isArray(inner)) {
    if (outer[0] === 0 && outer[1] === 0) weak.push('The window has no outer size, as in headless browsers.')
  }
  const isChrome = /Chrome\//.test(userAgent) && !/Edg\/|OPR\//.test(userAgent)
  if (isChrome && read.value('plugins') !== undefined && read.strings('plugins').length === 0) {
    weak.push('A Chrome without its built-in PDF plugins.')
  }
  if (
    isChrome &&
    read.value('vendorFlavors') !== undefined &&
    !read.strings('vendorFlavors').includes('chrome')
  ) {
    weak.push('A Chrome user agent without the window.chrome object.')
  }
  if (read.value('languages') !== undefined && read.strings('languages').length === 0)
    weak.push('The browser reports no languages.')
  const notification = read.field('permissions', 'notification')
  const query = read.field('permissions', 'query')
  // The two APIs read one permission: default ↔ prompt, granted ↔ granted, denied ↔ denied.
  const expectedQuery: Record<string, string> = { default: 'prompt', granted: 'granted', denied: 'denied' }
  if (
    typeof notification === 'string' &&
    typeof query === 'string' &&
    expectedQuery[notification] !== query
  ) {
    weak.push(
      `The notification permission is reported inconsistently (${notification} vs ${query}), as in headless or patched Chrome.`,
    )
  }

  if (strong.length > 0 || weak.length >= 2) {
    const kind =
      strong.find((probe) => probe.kind !== 'WebDriver')?.kind ?? strong[0]?.kind ?? 'Headless browser'
    return { result: 'bad', kind, reasons: [...strong.map((probe) => probe.reason), ...weak] }
  }
  return { result: 'notDetected', reasons: weak.length ? [`One weak hint only: ${weak[0]}`] : [] }
}
