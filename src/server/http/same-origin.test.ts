import { describe, expect, it } from 'vitest'
import { isFromOwnPages, requireAllowedOrigin, requireOwnNavigation, requireSameOrigin } from './same-origin'
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies'

const none: TrustedProxies = { count: 0 }
const oneProxy = parseTrustedProxies('1') as TrustedProxies

function post(headers: Record<string, string>, url = 'http://tessera.test/api/console/rules') {
  return new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } })
}

describe('isFromOwnPages: the one rule for "this request comes from Tessera’s own pages"', () => {
  it('believes the browser’s Sec-Fetch-Site over everything else', () => {
    expect(isFromOwnPages(post({ 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' }))).toBe(
      true,
    )
    // Another port of the same host is same-site, not same-origin.
    const otherPort = post({
      'sec-fetch-site': 'same-site',
      origin: 'http://tessera.test:8080',
      host: 'tessera.test',
    })
    expect(isFromOwnPages(otherPort)).toBe(false)
  })

  it('without Sec-Fetch-Site: an Origin whose host is the Host, or the public URL', () => {
    expect(
      isFromOwnPages(post({ origin: 'http://tessera.test', host: 'tessera.test' }), undefined, none),
    ).toBe(true)
    expect(
      isFromOwnPages(post({ origin: 'http://tessera.test:8080', host: 'tessera.test' }), undefined, none),
    ).toBe(false)
    const proxied = post({ origin: 'https://id.example', host: '127.0.0.1:3000' })
    expect(isFromOwnPages(proxied, undefined, none)).toBe(false)
    expect(isFromOwnPages(proxied, 'https://id.example', none)).toBe(true)
    expect(isFromOwnPages(post({ origin: 'null', host: 'tessera.test' }), undefined, none)).toBe(false)
  })

  it('takes X-Forwarded-Host for the host only behind a trusted proxy', () => {
    const proxied = post({
      origin: 'https://id.example',
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'id.example',
    })
    expect(isFromOwnPages(proxied, undefined, none)).toBe(false)
    expect(isFromOwnPages(proxied, undefined, oneProxy)).toBe(true)
  })
})

describe('isFromOwnPages once Tessera’s names are configured (DNS rebinding)', () => {
  const hosts = ['tessera.example']

  it('refuses a page on a name that is not Tessera’s, though its Origin equals its Host', () => {
    const rebound = post({ origin: 'http://rebound.example:3000', host: 'rebound.example:3000' })
    expect(isFromOwnPages(rebound, undefined, none, [])).toBe(true)
    expect(isFromOwnPages(rebound, undefined, none, hosts)).toBe(false)
    const sameOrigin = post({ 'sec-fetch-site': 'same-origin', host: 'rebound.example:3000' })
    expect(isFromOwnPages(sameOrigin, undefined, none, hosts)).toBe(false)
  })

  it('accepts Tessera’s own names, on any port, and a trusted proxy’s X-Forwarded-Host only if it is one', () => {
    const own = post({ origin: 'http://tessera.example:8080', host: 'TESSERA.example:8080' })
    expect(isFromOwnPages(own, undefined, none, hosts)).toBe(true)
    const proxied = (forwarded: string) =>
      post({ origin: `https://${forwarded}`, host: 'tessera.example', 'x-forwarded-host': forwarded })
    expect(isFromOwnPages(proxied('tessera.example'), undefined, oneProxy, hosts)).toBe(true)
    expect(isFromOwnPages(proxied('rebound.example'), undefined, oneProxy, hosts)).toBe(false)
  })
})

describe('requireSameOrigin and requireAllowedOrigin share that rule', () => {
  it('lets a request that names no page through (a back end cannot carry a browser’s cookies)', () => {
    expect(() => requireSameOrigin(post({}), undefined)).not.toThrow()
    expect(() => requireAllowedOrigin(post({}), [])).not.toThrow()
  })

  it('refuses another site’s page, unless identify’s site allows its origin', () => {
    const shop = post({ origin: 'https://shop.example', 'sec-fetch-site': 'cross-site' })
    expect(() => requireSameOrigin(shop, undefined)).toThrow(
      expect.objectContaining({ code: 'cross_origin' }),
    )
    expect(() => requireAllowedOrigin(shop, [])).toThrow(expect.objectContaining({ code: 'forbidden' }))
    expect(() => requireAllowedOrigin(shop, ['https://shop.example'])).not.toThrow()
  })
})

describe('a call that came through an integrator’s server (a public path)', () => {
  const proxied = (origin: string) =>
    new Request('http://tessera.test/api/v1/identify', {
      method: 'POST',
      // The integrator's proxy passes on what the browser sent: same-origin, for the integrator's page.
      headers: { origin, 'sec-fetch-site': 'same-origin', 'x-tessera-public-path': '1' },
    })

  it('counts only the site’s allowed origins, never "one of Tessera’s own pages"', () => {
    expect(() =>
      requireAllowedOrigin(proxied('https://shop.example'), ['https://shop.example']),
    ).not.toThrow()
    expect(() => requireAllowedOrigin(proxied('https://other.example'), ['https://shop.example'])).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    )
  })
})

describe('requireOwnNavigation: a GET that spends the visitor’s budget', () => {
  const opened = (fetchSite?: string) =>
    new Request('http://tessera.test/api/v1/device/export', {
      headers: fetchSite ? { 'sec-fetch-site': fetchSite } : {},
    })

  it('takes Tessera’s own pages, a typed address or bookmark, and a request that is no browser’s', () => {
    for (const fetchSite of ['same-origin', 'none', undefined])
      expect(() => requireOwnNavigation(opened(fetchSite))).not.toThrow()
  })

  it('refuses another site’s page and a page on another port of this host', () => {
    for (const fetchSite of ['cross-site', 'same-site'])
      expect(() => requireOwnNavigation(opened(fetchSite), 'Not from there.')).toThrow(
        expect.objectContaining({ code: 'cross_origin', status: 403, message: 'Not from there.' }),
      )
  })
})
