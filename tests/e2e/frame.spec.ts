import { createServer, type Server } from 'node:http'
import { expect, type Page, test } from '@playwright/test'
import { EMBEDDING_PORT } from '../support/e2e-constants'
import { defaultSiteKey } from '../support/helpers'

const tessera = `http://127.0.0.1:${Number(process.env.TESSERA_E2E_PORT ?? 3100)}`
const DISALLOWED_PORT = EMBEDDING_PORT - 1

/** The README's two-line embed, on a plain page of another origin. */
function parentPage(siteKey: string) {
  return `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
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

function serve(port: number, html: () => string): Promise<Server> {
  const server = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(html()),
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
  allowed = await serve(EMBEDDING_PORT, () => parentPage(siteKey))
  disallowed = await serve(DISALLOWED_PORT, () => parentPage(siteKey))
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

test('a disallowed origin gets a clear rejection and no data', async ({ page }) => {
  await page.goto(`http://localhost:${DISALLOWED_PORT}/`)
  const { result, failure } = await outcome(page)
  expect(result).toBeUndefined()
  expect(failure).toContain('did not answer')
  expect(failure).toContain(`Is this page's origin (http://localhost:${DISALLOWED_PORT}) allowed`)
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
})
