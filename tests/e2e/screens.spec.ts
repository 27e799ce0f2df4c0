import { expect, test } from '@playwright/test'

const screens = [
  { path: '/', heading: 'Know the device behind every sign-up' },
  { path: '/device-fingerprint', heading: 'Your device' },
  { path: '/registration', heading: 'Create your account' },
  { path: '/frame', heading: 'Tessera collector' },
] as const

for (const screen of screens) {
  test(`${screen.path} answers 200 and renders its heading`, async ({ page }) => {
    const response = await page.goto(screen.path)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeAttached()
  })
}

test('the navigation links the three screens', async ({ page }) => {
  await page.goto('/')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await nav.getByRole('link', { name: 'Your device' }).click()
  await expect(page).toHaveURL(/\/device-fingerprint$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your device' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Your device' })).toHaveAttribute('aria-current', 'page')
  await nav.getByRole('link', { name: 'Sign up' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible()
  await nav.getByRole('link', { name: 'Console' }).click()
  await expect(page).toHaveURL(/\/$/)
})

test('/frame has no navigation chrome and a transparent background', async ({ page }) => {
  await page.goto('/frame')
  await expect(page.getByRole('navigation')).toHaveCount(0)
  await expect(page.getByRole('banner')).toHaveCount(0)
  await expect(page.getByRole('contentinfo')).toHaveCount(0)
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(background).toBe('rgba(0, 0, 0, 0)')
})

test('an unknown address shows the not-found screen with a 404', async ({ page }) => {
  const response = await page.goto('/no-such-screen')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'This page does not exist' })).toBeVisible()
})

test('screens other than /frame refuse to be framed', async ({ request }) => {
  for (const path of ['/', '/device-fingerprint', '/registration']) {
    const response = await request.get(path)
    expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(response.headers()['x-frame-options']).toBe('DENY')
  }
})
