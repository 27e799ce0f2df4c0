import { describe, expect, it } from 'vitest'
import { ownOrigin } from './public-origin'

const request = (headers: Record<string, string>) => ({ headers: new Headers(headers) })

describe('ownOrigin', () => {
  it('never reflects X-Forwarded-Host', () => {
    expect(ownOrigin(request({ host: 'tessera.example:8443', 'x-forwarded-host': 'evil.example' }))).toBe(
      'http://tessera.example:8443',
    )
  })

  it('prefers the configured public URL over any header', () => {
    const headers = request({ host: 'internal:3000', 'x-forwarded-host': 'evil.example' })
    expect(ownOrigin(headers, 'https://tessera.example.com')).toBe('https://tessera.example.com')
  })

  it('says https when reached over HTTPS, and falls back to localhost for a Host that is not a host', () => {
    expect(ownOrigin({ ...request({ host: 'tessera.example' }), url: 'https://tessera.example/' })).toBe(
      'https://tessera.example',
    )
    // No proxy is trusted here: a client's own X-Forwarded-Proto counts for nothing.
    expect(ownOrigin(request({ host: 'tessera.example', 'x-forwarded-proto': 'https' }))).toBe(
      'http://tessera.example',
    )
    expect(ownOrigin(request({ host: 'x"><script>alert(1)</script>' }))).toBe('http://localhost:3000')
    expect(ownOrigin(request({}))).toBe('http://localhost:3000')
  })
})
