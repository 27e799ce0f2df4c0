import { expect, test } from '@playwright/test'
import { defaultSiteKey } from '../support/helpers'

// Issue #27, item 17: a prefetch is still a response a browser may keep and show, so it carries
// the same security headers as any other (the proxy used to skip prefetches, as Next's guide does).
const prefetches: Record<string, Record<string, string>> = {
  'Purpose: prefetch': { purpose: 'prefetch' },
  'Sec-Purpose: prefetch': { 'sec-purpose': 'prefetch' },
  'Next-Router-Prefetch': { 'next-router-prefetch': '1', rsc: '1' },
  RSC: { rsc: '1' },
}

for (const [name, headers] of Object.entries(prefetches)) {
  test(`/frame answers a ${name} request with its CSP and frame-ancestors`, async ({ request }) => {
    const siteKey = await defaultSiteKey(request)
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
