import type { IncomingMessage } from 'node:http'
import { beforeAll, describe, expect, it, vi } from 'vitest'

// The front's rewrite, with first-party public paths configured (read once, from the environment).
beforeAll(() => {
  vi.stubEnv('TESSERA_API_PREFIX', '/metrics/r')
  vi.stubEnv('TESSERA_AGENT_PATH', '/metrics/t.js')
})

function arriving(url: string, headers: Record<string, string> = {}) {
  return {
    url,
    headers: { ...headers },
    socket: { remoteAddress: '203.0.113.9' },
  } as unknown as IncomingMessage
}

describe('prepareRequest', () => {
  it('marks a request that came by a public path, and drops a marker a client sent itself', async () => {
    const { prepareRequest } = await import('./serve-node-route')
    const aliased = arriving('/metrics/r/identify?x=1')
    prepareRequest(aliased)
    expect(aliased.url).toBe('/api/v1/identify?x=1')
    expect(aliased.headers['x-tessera-public-path']).toBe('1')

    const forged = arriving('/api/v1/identify', { 'x-tessera-public-path': '1' })
    prepareRequest(forged)
    expect(forged.url).toBe('/api/v1/identify')
    expect(forged.headers['x-tessera-public-path']).toBeUndefined()
    expect(forged.headers['x-forwarded-for']).toBe('203.0.113.9')
  })
})
