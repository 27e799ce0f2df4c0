import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'

// A page on a made-up origin, served by Playwright itself: the agent needs no Tessera server.
const PAGE = 'http://agent.test/'
const agent = readFileSync('public/agent.js', 'utf8')

type Components = Record<string, { value?: unknown; error?: string; duration: number }>

async function open(page: Page) {
  await page.route(PAGE, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><body><p>agent</p><script>${agent}</script></body></html>`,
    }),
  )
  await page.goto(PAGE)
}

async function collect(page: Page, options = ''): Promise<{ components: Components; duration: number }> {
  return page.evaluate(`Tessera.collect(${options})`)
}

test('collects at least 45 signals, the important ones without errors', async ({ page }) => {
  await open(page)
  const { components, duration } = await collect(page)
  expect(Object.keys(components).length).toBeGreaterThanOrEqual(45)
  for (const name of [
    'userAgent',
    'languages',
    'timezone',
    'screen',
    'canvas',
    'webglBasics',
    'audio',
    'fonts',
    'mathQuirks',
    'codecs',
  ]) {
    expect(components[name]?.error, name).toBeUndefined()
  }
  expect(components.canvas?.value).toMatchObject({ text: expect.any(String), geometry: expect.any(String) })
  expect(Array.isArray(components.fonts?.value)).toBe(true)
  expect(duration).toBeLessThan(1500)
})

test('repeats every stable value exactly within one page', async ({ page }) => {
  await open(page)
  const first = await collect(page)
  const second = await collect(page)
  const volatile = new Set(['storageQuota'])
  for (const [name, component] of Object.entries(first.components)) {
    if (volatile.has(name)) continue
    expect(second.components[name]?.value, name).toEqual(component.value)
  }
})

test('gives the same values whether it gives the page its turns or not', async ({ page }) => {
  await open(page)
  // slice: Infinity runs every source, fonts and canvas included, in one stretch.
  const whole = await collect(page, '{ slice: Infinity }')
  const sliced = await collect(page)
  const volatile = new Set(['storageQuota'])
  for (const [name, component] of Object.entries(whole.components)) {
    if (volatile.has(name)) continue
    expect(sliced.components[name]?.value, name).toEqual(component.value)
    expect(sliced.components[name]?.error, name).toEqual(component.error)
  }
  // The sliced run says how much held the main thread, and broke it up.
  const slicedThread = (sliced as { mainThread?: { total: number; longest: number } }).mainThread
  expect(slicedThread).toEqual({ total: expect.any(Number), longest: expect.any(Number) })
  expect(slicedThread?.total).toBeGreaterThan(0)
  expect(slicedThread?.longest).toBeLessThan(slicedThread?.total ?? 0)
})

test('marks a canvas whose reads are randomised', async ({ page }) => {
  // What privacy extensions do: add noise every time the canvas is read.
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.toDataURL
    HTMLCanvasElement.prototype.toDataURL = function (...args: []) {
      return `${original.apply(this, args)}#${Math.random()}`
    }
  })
  await open(page)
  const { components } = await collect(page)
  expect(components.canvas?.value).toEqual({ randomized: true })
  expect(components.nativeFunctions?.value).toContain('HTMLCanvasElement.toDataURL')
})

test('follows the browser settings: colour scheme, reduced motion, locale and time zone', async ({
  browser,
}) => {
  const context = await browser.newContext({
    locale: 'de-DE',
    timezoneId: 'Asia/Tokyo',
    colorScheme: 'dark',
    reducedMotion: 'reduce',
  })
  const page = await context.newPage()
  await open(page)
  const { components } = await collect(page)
  expect(components.colorScheme?.value).toBe('dark')
  expect(components.reducedMotion?.value).toBe('reduce')
  expect(components.timezone?.value).toBe('Asia/Tokyo')
  expect(components.timezoneOffset?.value).toBe(-540)
  expect(components.languages?.value).toEqual(['de-DE'])
  expect(components.intlLocale?.value).toMatchObject({ locale: 'de-DE', number: '1.234.567,891' })
  await context.close()
})

test('isolates a throwing and a hanging source in the browser, within the deadline', async ({ page }) => {
  await open(page)
  const started = Date.now()
  const { components } = await collect(
    page,
    '{ deadline: 800, sourceTimeout: 200, sources: { broken: () => { throw new Error("nope") }, stuck: () => new Promise(() => {}) } }',
  )
  expect(Date.now() - started).toBeLessThan(2000)
  expect(components.broken?.error).toBe('Error: nope')
  expect(components.stuck?.error).toMatch(/^Timeout/)
  expect(components.canvas?.error).toBeUndefined()
  expect(Object.keys(components).length).toBeGreaterThanOrEqual(47)
})

test('reads fonts and font settings alike on a page with its own web font and styles', async ({ page }) => {
  // The page loads Inter as a web font and styles its text: that is the page, not the device.
  const inter = readFileSync('node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2')
  await page.route('http://agent.test/inter.woff2', (route) =>
    route.fulfill({ contentType: 'font/woff2', body: inter }),
  )
  await page.route('http://agent.test/styled', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><style>
        @font-face { font-family: 'Inter'; src: url(/inter.woff2) format('woff2'); }
        body, span, div { font: 22px/2 'Inter', sans-serif; letter-spacing: 2px; }
      </style></head><body><p>agent</p><script>${agent}</script></body></html>`,
    }),
  )
  await open(page)
  const plain = await collect(page)
  await page.goto('http://agent.test/styled')
  await page.evaluate(() => document.fonts.load("22px 'Inter'"))
  expect(await page.evaluate(() => document.fonts.check("22px 'Inter'"))).toBe(true)
  const styled = await collect(page)
  expect(styled.components.fonts?.value).toEqual(plain.components.fonts?.value)
  expect(styled.components.fontPreferences?.value).toEqual(plain.components.fontPreferences?.value)
})
