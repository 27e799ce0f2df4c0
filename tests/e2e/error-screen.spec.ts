import { expect, type Page, test } from '@playwright/test'
import { EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { serverLog } from '../support/helpers'
import { removeServerFiles, startTesseraServer } from '../support/tessera-server'

const FAULT_COOKIE = 'tessera-test-fault'

async function setFault(page: Page, baseURL: string | undefined, value: 'server' | 'client' | 'layout') {
  await page.context().addCookies([{ name: FAULT_COOKIE, value, url: baseURL ?? 'http://127.0.0.1:3100' }])
}

async function waitForLogLine(digest: string) {
  await expect
    .poll(() =>
      serverLog()
        .split('\n')
        .find((line) => line.includes(digest) && line.includes('"level":50')),
    )
    .toBeTruthy()
}

test('a server-side fault shows the error screen with a digest that the server logged', async ({
  page,
  baseURL,
}) => {
  await setFault(page, baseURL, 'server')
  const response = await page.goto('/registration')
  expect(response?.status()).toBe(500)
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible()
  // The tab names what is shown, not the page that failed.
  await expect(page).toHaveTitle('Something went wrong · Tessera')
  const digest = (await page.getByTestId('error-digest').textContent())?.trim() ?? ''
  expect(digest).toMatch(/^\w+$/)
  await waitForLogLine(digest)
  const line = serverLog()
    .split('\n')
    .find((entry) => entry.startsWith('{') && entry.includes(digest))
  expect(JSON.parse(line ?? '{}')).toMatchObject({ msg: 'request failed', digest, path: '/registration' })

  // The operator fixes the cause; "Try again" then recovers without a reload.
  await page.context().clearCookies()
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible()
  await expect(page).toHaveTitle(/Create your account/)
})

test('a client-side fault shows the error screen and "Try again" recovers', async ({ page, baseURL }) => {
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await setFault(page, baseURL, 'client')
  await page.goto('/device-fingerprint')
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible()
  await expect(page.getByText('This error happened in your browser')).toBeVisible()

  await page.context().clearCookies()
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your device' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toHaveCount(0)
})

test('a fault in the root layout shows the global error screen with a digest', async ({ page, baseURL }) => {
  await setFault(page, baseURL, 'layout')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible()
  const digest = (await page.getByTestId('error-digest').textContent())?.trim() ?? ''
  expect(digest).not.toBe('')
  await waitForLogLine(digest)
})

test('a server started without TESSERA_TEST_FAULTS ignores the fault switch', async ({ page }) => {
  const server = await startTesseraServer({ port: EXTRA_SERVER_PORTS.errorScreen })
  try {
    await page.context().addCookies([{ name: FAULT_COOKIE, value: 'server', url: server.url }])
    const response = await page.goto(`${server.url}/registration`)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible()
  } finally {
    await server.stop()
    removeServerFiles(server)
  }
})
