import { expect, test } from '@playwright/test'
import { browserHeaders } from '../support/browser-headers'
import { ADMIN_PASSWORD } from '../support/e2e-constants'
import { rawRequest } from '../support/raw-http'
import { syntheticDevice } from '../support/synthetic-devices'

// Issue #27, item 16, through the production front: the e2e server trusts no proxy
// (TESSERA_TRUSTED_PROXIES unset), so a client's own forwarding headers must count for nothing.
const claimsHttps = { 'x-forwarded-proto': 'https' }

test('an untrusted client’s X-Forwarded-Proto does not make the session cookie Secure', async () => {
  // From an address of this spec's own: the sign-in budget is per address.
  const signedIn = await rawRequest({
    port: Number(process.env.TESSERA_E2E_PORT ?? 3100),
    path: '/api/console/session',
    method: 'POST',
    localAddress: '127.0.4.16',
    headers: { ...claimsHttps, 'content-type': 'application/json' },
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
  })
  expect(signedIn.status).toBe(200)
  const cookie = [signedIn.headers['set-cookie'] ?? []].flat()[0] ?? ''
  expect(cookie).toMatch(/^tessera_session=/)
  expect(cookie).not.toMatch(/;\s*Secure/i)
})

test('an untrusted client’s X-Forwarded-Proto does not pin HTTPS (no HSTS)', async ({ request }) => {
  for (const path of ['/', '/registration', '/frame', '/device-fingerprint']) {
    const page = await request.get(path, { headers: claimsHttps })
    expect(page.status(), path).toBe(200)
    expect(page.headers()['strict-transport-security'], path).toBeUndefined()
  }
})

test('an untrusted client’s X-Forwarded-Proto does not make the visitor cookie Secure', async ({
  request,
}) => {
  // A browser's components (only the agent's own signals are kept: a payload of none is refused).
  const components = syntheticDevice(27_016)
  const identified = await request.post('/api/v1/identify', {
    headers: { ...claimsHttps, 'content-type': 'application/json', ...browserHeaders(components) },
    data: JSON.stringify({ components }),
  })
  expect(identified.status()).toBe(200)
  const cookie = identified.headers()['set-cookie'] ?? ''
  expect(cookie).toMatch(/^tessera_vid=/)
  expect(cookie).not.toMatch(/;\s*Secure/i)
  expect(cookie).not.toMatch(/SameSite=None/i)
})
