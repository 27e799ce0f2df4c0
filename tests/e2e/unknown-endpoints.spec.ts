import { expect, test } from '@playwright/test'

// PRODUCT.md: every API error is JSON `{ error: { code, message } }`. A path no route serves
// under /api or /v4 is a caller's mistake like any other, not the not-found screen's HTML.
test('a path no API route serves answers the JSON error, whatever the method', async ({ request }) => {
  const calls = [
    request.get('/api/v1/nope'),
    request.post('/api/v1/events/extra/segments', { data: {} }),
    request.delete('/api/nope'),
    request.get('/v4/nope'),
    request.put('/v4/events/one/two', { data: {} }),
    request.fetch('/api/v1/nope', { method: 'OPTIONS' }),
  ]
  for (const response of await Promise.all(calls)) {
    expect(response.status(), response.url()).toBe(404)
    expect(response.headers()['content-type'], response.url()).toContain('application/json')
    const body = await response.json()
    expect(body.error.code, response.url()).toBe('not_found')
    expect(body.error.message).toContain('/api/v1/openapi.json')
  }
})

test('a method an endpoint does not take answers the JSON error, with the methods it takes', async ({
  request,
}) => {
  const calls: [Promise<import('@playwright/test').APIResponse>, string][] = [
    [request.put('/api/v1/events/some-request-id', { data: {} }), 'GET, HEAD, OPTIONS'],
    [request.post('/api/v1/visitors/some-visitor', { data: {} }), 'GET, DELETE, HEAD, OPTIONS'],
    [request.get('/api/v1/identify'), 'POST, OPTIONS'],
    [request.post('/v4/events', { data: {} }), 'GET, HEAD, OPTIONS'],
    [request.get('/v4/visitors/some-visitor'), 'DELETE, OPTIONS'],
  ]
  for (const [call, allowed] of calls) {
    const response = await call
    expect(response.status(), response.url()).toBe(405)
    expect(response.headers().allow, response.url()).toBe(allowed)
    expect((await response.json()).error.code, response.url()).toBe('method_not_allowed')
  }
  // OPTIONS lists the same methods, not every name the route exports.
  const options = await request.fetch('/api/v1/visitors/some-visitor', { method: 'OPTIONS' })
  expect([options.status(), options.headers().allow]).toEqual([204, 'GET, DELETE, HEAD, OPTIONS'])
})

test('the routes that exist still answer as before', async ({ request }) => {
  expect((await request.get('/api/health')).status()).toBe(200)
  const unauthorised = await request.get('/api/v1/events/some-request-id')
  expect(unauthorised.status()).toBe(401)
  expect((await unauthorised.json()).error.code).toBe('unauthorized')
  // A screen that does not exist is still the not-found screen.
  const screen = await request.get('/no-such-screen')
  expect(screen.status()).toBe(404)
  expect(screen.headers()['content-type']).toContain('text/html')
})
