import { expect, test } from '@playwright/test'
import { syntheticDevice } from '../support/synthetic-devices'

// POST /api/v1/identify is answered by scripts/serve.mjs ahead of Next.js: these go through the
// real production front, its X-Forwarded-For rewrite and the bundled route.
test('the production front stores the socket address, never a client-sent X-Forwarded-For', async ({
  request,
}) => {
  const identified = await request.post('/api/v1/identify', {
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
    data: JSON.stringify({ components: syntheticDevice(90_001), url: 'https://shop.example/e2e' }),
  })
  expect(identified.status()).toBe(200)
  const headers = identified.headers()
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['content-security-policy']).toBe("frame-ancestors 'none'")
  expect(headers['cache-control']).toBe('no-store')
  const { visitorId, storedToken } = await identified.json()

  const report = await request.get('/api/v1/device', { headers: { cookie: `tessera_vid=${storedToken}` } })
  expect(report.status()).toBe(200)
  const device = await report.json()
  expect(device.visitorId).toBe(visitorId)
  expect(device.history).toEqual([
    expect.objectContaining({ ip: '127.0.0.1', url: 'https://shop.example/e2e' }),
  ])
})

test('the production front refuses bad identify requests with the documented errors', async ({ request }) => {
  const malformed = await request.post('/api/v1/identify', {
    headers: { 'content-type': 'application/json' },
    // A Buffer: Playwright would JSON-encode a string that is not valid JSON.
    data: Buffer.from('{"components": '),
  })
  expect(malformed.status()).toBe(400)
  expect((await malformed.json()).error.code).toBe('invalid_json')
  const oversized = await request.post('/api/v1/identify', {
    headers: { 'content-type': 'application/json' },
    data: JSON.stringify({ components: { big: { value: 'x'.repeat(70_000), duration: 1 } } }),
  })
  expect(oversized.status()).toBe(413)
  expect((await oversized.json()).error.code).toBe('payload_too_large')
})

test('the production front refuses a foreign page’s Origin and stores nothing', async ({ request }) => {
  const data = JSON.stringify({ components: syntheticDevice(90_002), url: 'https://evil.example/' })
  const refused = await request.post('/api/v1/identify', {
    headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    data,
  })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).error.code).toBe('forbidden')
  expect(refused.headers()['access-control-allow-origin']).toBeUndefined()
  const accepted = await request.post('/api/v1/identify', {
    headers: { 'content-type': 'application/json', origin: new URL(refused.url()).origin },
    data,
  })
  expect(accepted.status()).toBe(200)
  // The refused request left no event: this device's only visit is the accepted one.
  const { storedToken } = await accepted.json()
  const report = await request.get('/api/v1/device', { headers: { cookie: `tessera_vid=${storedToken}` } })
  expect((await report.json()).history).toHaveLength(1)
})
