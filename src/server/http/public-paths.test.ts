import { describe, expect, it } from 'vitest'
import { parseEnv } from '../env'
import { canonicalUrl, publicPathProblem } from './public-paths'

describe('public paths (first-party serving)', () => {
  const paths = { agentPath: '/metrics/t.js', apiPrefix: '/metrics/r' }

  it('map the loader, the identify call and its nonce, with their query, and nothing else', () => {
    expect(canonicalUrl('/metrics/t.js', paths)).toBe('/agent.js')
    expect(canonicalUrl('/metrics/t.js?v=2', paths)).toBe('/agent.js?v=2')
    expect(canonicalUrl('/metrics/r/identify', paths)).toBe('/api/v1/identify')
    expect(canonicalUrl('/metrics/r/nonce?siteKey=pk_1', paths)).toBe('/api/v1/nonce?siteKey=pk_1')
    // Not the rest of the API: the Server API, the device and console routes keep one address.
    for (const url of [
      '/metrics/r/events/abc',
      '/metrics/r/visitors/abc',
      '/metrics/r/device',
      '/metrics/r/identify/x',
      '/metrics/r/nonce/x',
      '/metrics/r',
      '/metrics/t.js/x',
      '/metrics/r%2Fidentify',
      '/agent.js',
      '/api/v1/identify',
    ])
      expect(canonicalUrl(url, paths), url).toBeUndefined()
    expect(canonicalUrl('/metrics/t.js', {})).toBeUndefined()
  })

  it("refuse Tessera's own paths and anything that is not a plain path", () => {
    for (const path of ['/metrics/t.js', '/t', '/a.b/c~d_e-f'])
      expect(publicPathProblem(path), path).toBeUndefined()
    for (const path of [
      '',
      '/',
      'metrics',
      '/metrics/',
      '/a//b',
      '/a/../api/v1',
      '/a?b',
      '/a b',
      'https://x/y',
      '/api',
      '/api/v2',
      '/_next/static/x.js',
      '/frame',
      '/registration/x',
      '/device-fingerprint',
      '/agent.js',
    ])
      expect(publicPathProblem(path), path).toBeDefined()
  })

  it('are validated at start-up, a trailing slash aside', () => {
    const env = parseEnv({ TESSERA_AGENT_PATH: '/metrics/t.js', TESSERA_API_PREFIX: '/metrics/r/' })
    expect(env.TESSERA_AGENT_PATH).toBe('/metrics/t.js')
    expect(env.TESSERA_API_PREFIX).toBe('/metrics/r')
    expect(() => parseEnv({ TESSERA_API_PREFIX: '/api/v2' })).toThrow(/TESSERA_API_PREFIX must not be \/api/)
    expect(() => parseEnv({ TESSERA_AGENT_PATH: '/x/../frame' })).toThrow(/TESSERA_AGENT_PATH must be a path/)
  })
})
