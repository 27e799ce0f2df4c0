import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD, EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { openSignedInConsole } from '../support/helpers'
import { rawRequest } from '../support/raw-http'
import { syntheticDevice } from '../support/synthetic-devices'
import { type RunningServer, removeServerFiles, startTesseraServer } from '../support/tessera-server'

// Issue #27, item 18: DNS rebinding. A page on a name the attacker controls, rebound to Tessera's
// address, is same-origin with itself: its requests carry Host: <that name> and a matching Origin.
// Once Tessera knows its own names, any other Host is refused with 421 before anything answers.
const port = EXTRA_SERVER_PORTS.allowedHosts
const ownHost = `tessera.test:${port}`
const rebound = `rebound.example:${port}`
let server: RunningServer

test.beforeAll(async () => {
  test.setTimeout(90_000)
  server = await startTesseraServer({
    port,
    env: {
      TESSERA_PUBLIC_URL: `http://${ownHost}`,
      // The browser-driven test below signs in on 127.0.0.1.
      TESSERA_ALLOWED_HOSTS: 'localhost, 127.0.0.1',
      TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
  })
})

test.afterAll(async () => {
  await server?.stop()
  if (server) removeServerFiles(server)
})

const identifyBody = JSON.stringify({ components: syntheticDevice(91_001) })

test('a configured name is answered; any other Host gets 421 before anything answers', async () => {
  for (const host of [ownHost, `localhost:${port}`, `127.0.0.1:${port}`]) {
    expect((await rawRequest({ port, path: '/', headers: { host } })).status, host).toBe(200)
  }
  const page = await rawRequest({ port, path: '/registration', headers: { host: rebound } })
  expect(page.status).toBe(421)
  expect(page.headers['content-type']).toMatch(/^text\/plain/)
  expect(page.headers['x-frame-options']).toBe('DENY')
  expect(page.body).not.toContain('rebound.example')

  for (const [method, path, body] of [
    ['GET', '/api/v1/openapi.json', undefined],
    ['POST', '/api/v1/identify', identifyBody],
    ['GET', '/v4/events/abc', undefined],
  ] as const) {
    const answer = await rawRequest({
      port,
      path,
      method,
      body,
      headers: { host: rebound, 'content-type': 'application/json', origin: `http://${rebound}` },
    })
    expect(answer.status, path).toBe(421)
    expect(JSON.parse(answer.body).error.code, path).toBe('misdirected_request')
  }
})

test('a rebound page cannot sign in, even with an Origin that equals its Host', async () => {
  const attempt = await rawRequest({
    port,
    path: '/api/console/session',
    method: 'POST',
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
    headers: {
      host: rebound,
      origin: `http://${rebound}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
    },
  })
  expect(attempt.status).toBe(421)
  expect(attempt.headers['set-cookie']).toBeUndefined()
  const own = await rawRequest({
    port,
    path: '/api/console/session',
    method: 'POST',
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
    headers: { host: ownHost, origin: `http://${ownHost}`, 'content-type': 'application/json' },
  })
  expect(own.status).toBe(200)
})

test('/api/health answers probes whatever their Host (a load balancer probes by address)', async () => {
  const probe = await rawRequest({ port, path: '/api/health', headers: { host: '10.0.0.5:3000' } })
  expect(probe.status).toBe(200)
  expect(JSON.parse(probe.body).status).toBe('ok')
})

test('the console does not warn about the Host when the public URL is set', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${port}/`)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Console', exact: true })).toBeVisible()
  await expect(page.getByText('TESSERA_PUBLIC_URL is not set')).toHaveCount(0)
})

test.describe('without TESSERA_PUBLIC_URL or TESSERA_ALLOWED_HOSTS (local development)', () => {
  test('any Host is answered, as before', async ({ baseURL }) => {
    const e2ePort = Number(new URL(baseURL ?? '').port)
    const answer = await rawRequest({ port: e2ePort, path: '/registration', headers: { host: rebound } })
    expect(answer.status).toBe(200)
  })

  test('the signed-in console warns that the Host is not checked', async ({ page }) => {
    await openSignedInConsole(page)
    const warning = page.getByRole('alert').filter({ hasText: 'TESSERA_PUBLIC_URL is not set' })
    await expect(warning).toBeVisible()
    await expect(warning).toContainText('TESSERA_ALLOWED_HOSTS')
  })
})
