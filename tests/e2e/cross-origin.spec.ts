import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD } from '../support/e2e-constants'

const tesseraPort = Number(process.env.TESSERA_E2E_PORT ?? 3100)
const tessera = `http://127.0.0.1:${tesseraPort}`
// Same host, another port: the same site, so SameSite=Strict session cookies go along.
const attackerPort = tesseraPort + 8
const attacker = `http://127.0.0.1:${attackerPort}`

/** The attacker's page: forged requests as plain fetches and as a text/plain form. */
function attackPage(siteId: string) {
  const hook = JSON.stringify({ siteId, url: 'https://attacker.example/hook' })
  return `<!doctype html><html><head><title>Win a prize</title></head><body>
<form id="login" method="post" action="${tessera}/api/console/session" enctype="text/plain">
  <input name='{"password":"${ADMIN_PASSWORD}","x":"' value='"}'>
</form>
<script>
  const send = (contentType) => fetch('${tessera}/api/console/webhooks', {
    method: 'POST', mode: 'no-cors', credentials: 'include',
    headers: { 'content-type': contentType }, body: ${JSON.stringify(hook)},
  }).catch(() => undefined)
  window.attack = async () => {
    await send('text/plain')
    await fetch('${tessera}/api/console/webhooks', {
      method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' },
      body: ${JSON.stringify(hook)},
    }).catch(() => undefined)
  }
</script></body></html>`
}

let server: Server
let page = ''
test.beforeAll(async () => {
  server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page))
  await new Promise<void>((resolve) => server.listen(attackerPort, '127.0.0.1', resolve))
})
test.afterAll(() => server.close())

test('a page on another port cannot make the operator’s browser create a webhook', async ({ browser }) => {
  const context = await browser.newContext()
  const tab = await context.newPage()
  await tab.goto(tessera)
  await tab.getByLabel('Password').fill(ADMIN_PASSWORD)
  await tab.getByRole('button', { name: 'Sign in' }).click()
  await expect(tab.getByRole('heading', { name: 'Console', exact: true })).toBeVisible()
  const webhooks = async () => {
    const { sites } = (await (await context.request.get(`${tessera}/api/console/sites`)).json()) as {
      sites: { id: string; isDefault: boolean; webhooks: unknown[] }[]
    }
    return {
      siteId: sites.find((site) => site.isDefault)?.id ?? '',
      count: sites.flatMap((site) => site.webhooks).length,
    }
  }
  const before = await webhooks()
  page = attackPage(before.siteId)

  const forged = tab.waitForResponse((response) => response.url().endsWith('/api/console/webhooks'))
  await tab.goto(attacker)
  await tab.evaluate(() => (window as unknown as { attack: () => Promise<void> }).attack())
  expect((await forged).status()).toBe(403)
  expect((await webhooks()).count).toBe(before.count)
  await context.close()
})

test('a page on another port cannot sign a browser in to its session (login CSRF)', async ({ browser }) => {
  const context = await browser.newContext()
  const tab = await context.newPage()
  page = attackPage('none')
  await tab.goto(attacker)
  const answer = tab.waitForResponse((response) => response.url().endsWith('/api/console/session'))
  await tab.locator('#login').evaluate((form) => (form as HTMLFormElement).submit())
  expect((await answer).status()).toBe(403)
  const cookies = await context.cookies(tessera)
  expect(cookies.filter((cookie) => cookie.name === 'tessera_session')).toEqual([])
  await context.close()
})

test('a page on another port cannot spend a visitor’s "Export my data" budget', async ({ browser }) => {
  const context = await browser.newContext()
  const tab = await context.newPage()
  await tab.goto(`${tessera}/device-fingerprint`)
  await expect(tab.getByTestId('visitor-id')).toHaveText(/\S{8,}/, { timeout: 15_000 })
  // A link the visitor follows (or a script's navigation): top-level, so SameSite=Lax cookies go along.
  page = `<!doctype html><html><head><title>Win a prize</title></head><body>
<a href="${tessera}/api/v1/device/export">Claim your prize</a></body></html>`
  for (let attempt = 0; attempt < 4; attempt++) {
    await tab.goto(attacker)
    const refused = tab.waitForResponse((response) => response.url().endsWith('/api/v1/device/export'))
    await tab.getByRole('link', { name: 'Claim your prize' }).click()
    expect((await refused).status()).toBe(403)
    await expect(tab.getByText('"code":"cross_origin"')).toBeVisible()
  }
  // The visitor's own three exports are all still there.
  await tab.goto(`${tessera}/device-fingerprint`)
  for (let attempt = 0; attempt < 3; attempt++) {
    const download = tab.waitForEvent('download')
    await tab.getByRole('link', { name: 'Export my data (JSON)' }).click()
    const file = await (await download).path()
    // Its data, not a refusal (the page's link downloads whatever answers).
    expect(JSON.parse(readFileSync(file, 'utf8')).visitor.visitorId).toBeTruthy()
  }
  await context.close()
})
