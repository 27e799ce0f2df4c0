import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD } from '../support/e2e-constants'
import { rawRequest, signInFrom } from '../support/raw-http'

// Issue #27, item 17: a prefetch is still a response a browser may keep and show, so it carries
// the same security headers as any other (the proxy used to skip prefetches, as Next's guide does).
const prefetches: Record<string, Record<string, string>> = {
  'Purpose: prefetch': { purpose: 'prefetch' },
  'Sec-Purpose: prefetch': { 'sec-purpose': 'prefetch' },
  'Next-Router-Prefetch': { 'next-router-prefetch': '1', rsc: '1' },
  RSC: { rsc: '1' },
}

const port = Number(process.env.TESSERA_E2E_PORT ?? 3100)
let siteKey = ''

test.beforeAll(async () => {
  // The default site's key, as the console lists it (signed in from an address of this spec's own).
  const cookie = await signInFrom(port, '127.0.4.18', ADMIN_PASSWORD)
  const sites = await rawRequest({
    port,
    path: '/api/console/sites',
    headers: { cookie },
    localAddress: '127.0.4.18',
  })
  const listed = JSON.parse(sites.body) as { sites: { publicKey: string; isDefault: boolean }[] }
  siteKey = listed.sites.find((site) => site.isDefault)?.publicKey ?? ''
})

for (const [name, headers] of Object.entries(prefetches)) {
  test(`/frame answers a ${name} request with its CSP and frame-ancestors`, async ({ request }) => {
    expect(siteKey).toMatch(/^pk_/)
    const frame = await request.get(`/frame?siteKey=${siteKey}`, { headers })
    expect(frame.status()).toBe(200)
    const policy = frame.headers()['content-security-policy'] ?? ''
    expect(policy).toMatch(/frame-ancestors 'self' http:\/\/localhost:\d+/)
    expect(policy).toMatch(/script-src 'self' 'nonce-/)
    expect(frame.headers()['x-content-type-options']).toBe('nosniff')
  })

  test(`the other screens answer a ${name} request with their CSP and refuse framing`, async ({
    request,
  }) => {
    for (const path of ['/', '/registration', '/device-fingerprint']) {
      const page = await request.get(path, { headers })
      expect(page.status(), path).toBe(200)
      const policy = page.headers()['content-security-policy'] ?? ''
      expect(policy, path).toMatch(/script-src 'self' 'nonce-/)
      expect(policy, path).toContain("frame-ancestors 'none'")
      expect(page.headers()['x-frame-options'], path).toBe('DENY')
    }
  })
}
