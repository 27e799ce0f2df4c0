import { expect, type Page, test } from '@playwright/test'
import { ADMIN_PASSWORD } from '../support/e2e-constants'

/** Collects every Content-Security-Policy violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  const consoleReports: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleReports.push(message.text())
  })
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
    ...consoleReports,
  ]
}

/** The nonce of the document's CSP, which every script tag of the page must carry. */
async function expectNoncedDocument(page: Page, path: string) {
  const response = await page.goto(path)
  const policy = response?.headers()['content-security-policy'] ?? ''
  const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1]
  expect(nonce, path).toBeDefined()
  for (const directive of ["object-src 'none'", "base-uri 'none'", "form-action 'self'"])
    expect(policy).toContain(directive)
  const scripts = await page
    .locator('script')
    .evaluateAll((nodes) => nodes.map((node) => (node as HTMLScriptElement).nonce))
  expect(scripts.length).toBeGreaterThan(0)
  expect(new Set(scripts)).toEqual(new Set([nonce]))
}

test('every screen has a nonce CSP, hydrates and works without a single violation', async ({ page }) => {
  const violations = await watchViolations(page)

  await expectNoncedDocument(page, '/device-fingerprint')
  await expect(page.getByTestId('visitor-id')).toHaveText(/^[\w-]{20}$/, { timeout: 15_000 })

  await expectNoncedDocument(page, '/registration')
  await expect(page.getByTestId('device-check')).toHaveText('Device check: done', { timeout: 15_000 })
  // The form validates in the browser (zod) before sending anything.
  await page.getByLabel('Email').fill('<b>@example.com')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByText('Enter an email address like name@example.com.')).toBeVisible()

  await expectNoncedDocument(page, '/frame')
  await expect(page.getByRole('heading', { name: 'Tessera collector' })).toBeAttached()

  await expectNoncedDocument(page, '/')
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Console', exact: true })).toBeVisible()
  await expect(page.locator('.recharts-surface').first()).toBeVisible()
  expect(await violations()).toEqual([])
})

test('the proof-of-work widget runs under the CSP (sign-in after wrong passwords)', async ({ page }) => {
  const violations = await watchViolations(page)
  await page.goto('/')
  const form = page.getByRole('form', { name: 'Operator sign-in' })
  // Another account than the admin's: the throttle is per (account, address).
  await form.getByLabel('Username').fill('csp-check')
  for (const wait of [1_100, 2_100, 0]) {
    await form.getByLabel('Password').fill('wrong password')
    await form.getByRole('button', { name: 'Sign in' }).click()
    await expect(form.getByRole('alert')).toHaveText('Wrong username or password.')
    await page.waitForTimeout(wait)
  }
  await expect(form.getByRole('status')).toHaveText('Puzzle solved. You can sign in again.', {
    timeout: 15_000,
  })
  expect(await violations()).toEqual([])
})

test('a webhook signing secret is shown once, and answers with secrets are not stored', async ({ page }) => {
  await page.goto('/')
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  const signedIn = page.waitForResponse(
    (response) => response.url().endsWith('/api/console/session') && response.request().method() === 'POST',
  )
  await page.getByRole('button', { name: 'Sign in' }).click()
  expect((await signedIn).headers()['cache-control']).toBe('no-store')

  const site = page.getByRole('article', { name: /^Default site/ })
  await site.getByLabel('URL').fill('https://shop.example/hooks/csp')
  const created = page.waitForResponse((response) => response.url().endsWith('/api/console/webhooks'))
  await site.getByRole('button', { name: 'Add webhook' }).click()
  expect((await created).headers()['cache-control']).toBe('no-store')
  const secret = site.getByRole('status').filter({ hasText: 'signing secret' }).locator('code').last()
  await expect(secret).toHaveText(/^whsec_/)
  const value = (await secret.textContent()) ?? ''
  await site.getByRole('button', { name: 'I have copied it' }).click()
  await page.reload()
  await expect(page.getByText('https://shop.example/hooks/csp').first()).toBeVisible()
  expect(await page.content()).not.toContain(value)
})

test('the embed snippet never reflects X-Forwarded-Host', async ({ request, baseURL }) => {
  const page = await request.get('/', { headers: { 'x-forwarded-host': 'evil.example' } })
  const html = await page.text()
  expect(html).not.toContain('evil.example')
  expect(html).toContain(`${baseURL}/agent.js`)
})
