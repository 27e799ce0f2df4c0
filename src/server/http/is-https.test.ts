import { describe, expect, it } from 'vitest'
import { isHttps } from './is-https'
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies'

const trusted = (value: string) => parseTrustedProxies(value) as TrustedProxies
const arriving = (url: string, headers: Record<string, string> = {}) => ({
  url,
  headers: new Headers(headers),
})

describe('isHttps: the one rule behind Secure cookies and HSTS', () => {
  it('believes X-Forwarded-Proto only when a proxy is trusted', () => {
    const claimed = arriving('http://tessera.test/', { 'x-forwarded-proto': 'https' })
    expect(isHttps(claimed, trusted('0'))).toBe(false)
    expect(isHttps(claimed, trusted('1'))).toBe(true)
    expect(isHttps(claimed, trusted('10.0.0.0/8'))).toBe(true)
  })

  it('takes the first hop’s word behind proxies, and the URL without a header', () => {
    expect(isHttps(arriving('http://t/', { 'x-forwarded-proto': 'http, https' }), trusted('2'))).toBe(false)
    expect(isHttps(arriving('https://t/'), trusted('0'))).toBe(true)
    expect(isHttps(arriving('http://t/'), trusted('1'))).toBe(false)
  })
})
