import { createServer, type Server } from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { EMBEDDING_PORT } from '../support/e2e-constants'
import { defaultSiteKey } from '../support/helpers'

const tessera = `http://127.0.0.1:${Number(process.env.TESSERA_E2E_PORT ?? 3100)}`
const DISALLOWED_PORT = EMBEDDING_PORT - 1

/**
 * The README's two-line embed, on a plain page of another origin; `?key=` embeds another site key,
 * `?no-referrer` sets the page's referrer policy to send none.
 */
function parentPage(defaultKey: string, url = '/') {
  const query = new URL(url, 'http://shop').searchParams
  const siteKey = query.get('key') ?? defaultKey
  const referrer = query.has('no-referrer') ? '<meta name="referrer" content="no-referrer">' : ''
  // `?bare-frame`: the collector framed by hand, sending no Referer (as an older browser, or a
  // setting that strips it): its hellos and whatever the frame answers are recorded.
  if (query.has('bare-frame'))
    return `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<iframe referrerpolicy="no-referrer" src="${tessera}/frame?siteKey=${siteKey}"></iframe>
<script>
  window.answers = []
  addEventListener('message', (event) => window.answers.push(event.data))
  const frame = document.querySelector('iframe')
  setInterval(() => frame.contentWindow.postMessage({ tessera: 'hello', siteKey: '${siteKey}', collectEarly: true }, '${tessera}'), 250)
</script></body></html>`
  // `?forge-refusal`: the page's own window posts refusals while the frame loads (not the frame's).
  const forged = query.has('forge-refusal')
    ? `<script>setInterval(() => window.postMessage({ tessera: 'refused', reason: 'origin' }, '*'), 10)</script>`
    : ''
  return `<!doctype html><html><head><title>Shop</title>${referrer}</head><body><h1>Shop</h1>${forged}
<script src="${tessera}/agent.js"></script>
<script type="module">
  try {
    const agent = await Tessera.load({ siteKey: '${siteKey}', endpoint: '${tessera}', timeout: 5000 })
    window.agent = agent
    window.result = await agent.get({ tag: { page: 'checkout' }, linkedId: 'buyer-1' })
  } catch (error) {
    window.failure = String(error.message)
  }
</script></body></html>`
}

function serve(port: number, html: (url?: string) => string): Promise<Server> {
  const server = createServer((request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(html(request.url)),
  )
  return new Promise((resolve) => server.listen(port, 'localhost', () => resolve(server)))
}

// Playwright emulates the screen size for the top frame only; without emulation the embedded
// frame and the top-level page see the same screen, as in a real browser.
test.use({ viewport: null })

let allowed: Server
let disallowed: Server
let siteKey = ''

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL })
  siteKey = await defaultSiteKey(request)
  await request.dispose()
  allowed = await serve(EMBEDDING_PORT, (url) => parentPage(siteKey, url))
  disallowed = await serve(DISALLOWED_PORT, (url) => parentPage(siteKey, url))
})
test.afterAll(() => {
  allowed.close()
  disallowed.close()
})

async function outcome(page: Page) {
  await page.waitForFunction(() => 'result' in window || 'failure' in window, null, { timeout: 15_000 })
  return page.evaluate(() => ({
    result: (
      window as unknown as {
        result?: { visitorId: string; requestId: string; signals: Record<string, { result: unknown }> }
      }
    ).result,
    failure: (window as unknown as { failure?: string }).failure,
  }))
}

test('an allowed origin gets the same visitor ID that /device-fingerprint shows', async ({ page }) => {
  await page.goto(`http://localhost:${EMBEDDING_PORT}/`)
  const { result, failure } = await outcome(page)
  expect(failure).toBeUndefined()
  expect(result?.visitorId).toMatch(/^[\w-]{20}$/)
  // The collector in the frame fetched its nonce from its own origin and proved it ran.
  expect(result?.signals.agentProof?.result).toBe('valid')

  await page.goto(`${tessera}/device-fingerprint`)
  await expect(page.getByTestId('visitor-id')).toHaveText(result?.visitorId ?? 'missing', { timeout: 15_000 })
})

test("the embed writes nothing into the integrator's console", async ({ page }) => {
  const written: string[] = []
  page.on('console', (message) => written.push(`${message.type()}: ${message.text()}`))
  page.on('pageerror', (error) => written.push(`error: ${error.message}`))
  await page.goto(`http://localhost:${EMBEDDING_PORT}/`)
  const { result, failure } = await outcome(page)
  expect(failure).toBeUndefined()
  expect(result?.visitorId).toMatch(/^[\w-]{20}$/)
  expect(written).toEqual([])
})

test('a disallowed origin gets a clear rejection at once, and no data', async ({ page }) => {
  const identifyCalls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/identify')) identifyCalls.push(request.url())
  })
  const frame = page.waitForResponse((response) => response.url().startsWith(`${tessera}/frame`))
  await page.goto(`http://localhost:${DISALLOWED_PORT}/`)
  // Not the loader's time-out: the frame's answer says why, and the collector never came.
  const { result, failure } = await outcome(page)
  expect(result).toBeUndefined()
  expect(failure).toBe(
    `Tessera: this page's origin (http://localhost:${DISALLOWED_PORT}) is not allowed for site key ${siteKey}: add it to the site's allowed origins in the console.`,
  )
  const refusal = await frame
  expect(refusal.status()).toBe(403)
  expect(refusal.headers()['content-security-policy']).toMatch(
    new RegExp(`; frame-ancestors http://localhost:${DISALLOWED_PORT}$`),
  )
  expect(identifyCalls).toEqual([])

  // An unknown site key is named as such.
  await page.goto(`http://localhost:${DISALLOWED_PORT}/?key=pk_nosuchsite`)
  expect((await outcome(page)).failure).toBe(
    `Tessera: ${tessera} knows no site with the key pk_nosuchsite: copy the site key from its console.`,
  )
})

test('a disallowed page whose policy sends no Referer is told at once too: the frame asks for its origin', async ({
  page,
}) => {
  const frame = page.waitForRequest((request) => request.url().startsWith(`${tessera}/frame`))
  await page.goto(`http://localhost:${DISALLOWED_PORT}/checkout?no-referrer`)
  const { result, failure } = await outcome(page)
  expect(result).toBeUndefined()
  expect(failure).toBe(
    `Tessera: this page's origin (http://localhost:${DISALLOWED_PORT}) is not allowed for site key ${siteKey}: add it to the site's allowed origins in the console.`,
  )
  // The origin alone, not the page's path.
  expect(await (await frame).headerValue('referer')).toBe(`http://localhost:${DISALLOWED_PORT}/`)
})

test('a disallowed page that sends no Referer is kept out by frame-ancestors alone', async ({ page }) => {
  const refused: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('frame-ancestors')) refused.push(message.text())
  })
  const frame = page.waitForResponse((response) => response.url().startsWith(`${tessera}/frame`))
  await page.goto(`http://localhost:${DISALLOWED_PORT}/?bare-frame`)
  // Without a Referer nothing names the parent: the collector itself is sent, and the browser refuses it.
  const response = await frame
  expect(response.status()).toBe(200)
  expect(await response.request().headerValue('referer')).toBeNull()
  await expect.poll(() => refused.length).toBeGreaterThan(0)
  expect(refused[0]).toContain(
    `violates the following Content Security Policy directive: "frame-ancestors 'self' http://localhost:${EMBEDDING_PORT}"`,
  )
  expect(refused[0]).toContain('blocked')
  await page.waitForTimeout(1500)
  expect(await page.evaluate(() => (window as unknown as { answers: unknown[] }).answers)).toEqual([])
})

test('/frame may be framed only by the origins allowed for its site key', async ({ request }) => {
  const frame = await request.get(`/frame?siteKey=${siteKey}`)
  expect(frame.headers()['content-security-policy']).toMatch(
    new RegExp(`; frame-ancestors 'self' http://localhost:${EMBEDDING_PORT}$`),
  )
  expect(frame.headers()['x-frame-options']).toBeUndefined()
  const unknown = await request.get('/frame?siteKey=pk_unknown')
  expect(unknown.headers()['content-security-policy']).toMatch(/; frame-ancestors 'self'$/)
})

test('a forged postMessage from another window is ignored', async ({ page, context }) => {
  await page.goto(`http://localhost:${EMBEDDING_PORT}/`)
  await outcome(page)
  // Another window (same origin as the parent, not the frame) answers an outstanding request.
  const forger = await context.newPage()
  await forger.goto(`http://localhost:${EMBEDDING_PORT}/`)
  const pending = page.evaluate(() => {
    const agent = (window as unknown as { agent: { get(): Promise<{ visitorId: string }> } }).agent
    return agent.get().then((answer) => answer.visitorId)
  })
  await forger.evaluate((origin) => {
    const opener = window.opener ?? window
    for (let id = 0; id < 50; id++) {
      opener.postMessage(
        { tessera: 'result', id: `x-${id}`, result: { visitorId: 'forged-visitor-id-000' } },
        origin,
      )
    }
    window.postMessage({ tessera: 'ready' }, origin)
  }, `http://localhost:${EMBEDDING_PORT}`)
  await page.evaluate(() => {
    for (let id = 0; id < 5; id++) {
      window.postMessage(
        {
          tessera: 'result',
          id: `${Date.now().toString(36)}-${id}`,
          result: { visitorId: 'forged-visitor-id-000' },
        },
        '*',
      )
    }
  })
  expect(await pending).toMatch(/^[\w-]{20}$/)
  expect(await pending).not.toBe('forged-visitor-id-000')

  // A refusal that does not come from the frame does not stop an allowed page's load().
  await page.goto(`http://localhost:${EMBEDDING_PORT}/?forge-refusal`)
  const { result, failure } = await outcome(page)
  expect(failure).toBeUndefined()
  expect(result?.visitorId).toMatch(/^[\w-]{20}$/)
})
