import { NextRequest } from 'next/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { proxy } from './proxy'
import { getDb } from './server/db/client'
import { ensureDefaultSite } from './server/sites/ensure-default-site'

let siteKey = ''

beforeAll(async () => {
  siteKey = (await ensureDefaultSite({ db: await getDb(), origins: ['https://shop.example'] })).publicKey
})

const visit = (path: string, headers: Record<string, string> = {}) =>
  proxy(new NextRequest(`http://127.0.0.1:3000${path}`, { headers }))

describe('the screens’ security headers', () => {
  it('give each response its own script nonce, and hand it to Next.js', async () => {
    const first = await visit('/')
    const second = await visit('/')
    const policy = first.headers.get('content-security-policy') ?? ''
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/.exec(policy)?.[1]
    expect(nonce).toBeDefined()
    expect(second.headers.get('content-security-policy')).not.toContain(nonce)
    // Next.js reads the nonce from the request's CSP header, which the proxy overrides.
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(policy)
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ])
      expect(policy).toContain(directive)
    expect(policy).not.toContain('unsafe-eval')
  })

  it('let /frame be framed only by the site’s allowed origins', async () => {
    const policy = (await visit(`/frame?siteKey=${siteKey}`)).headers.get('content-security-policy')
    expect(policy).toContain("frame-ancestors 'self' https://shop.example")
    expect(policy).toMatch(/script-src 'self' 'nonce-/)
    const unknown = (await visit('/frame?siteKey=pk_unknown')).headers.get('content-security-policy')
    expect(unknown).toContain("frame-ancestors 'self'")
    expect(unknown).not.toContain('shop.example')
    // No site key is not a way around the rule.
    expect((await visit('/registration')).headers.get('content-security-policy')).toContain(
      "frame-ancestors 'none'",
    )
  })

  it('answer a page the site does not allow with a refusal it can read, in place of the collector', async () => {
    const framedBy = (parent: string | undefined, key = siteKey, site = 'cross-site') =>
      visit(`/frame?siteKey=${key}`, {
        'sec-fetch-dest': 'iframe',
        'sec-fetch-site': site,
        ...(parent ? { referer: `${parent}/checkout?step=1` } : {}),
      })
    const refused = await framedBy('https://evil.example')
    expect(refused.status).toBe(403)
    const body = await refused.text()
    // Only the refusal, posted to that page alone, under its own nonce: no collector, no app.
    const nonce = /'nonce-([^']+)'/.exec(refused.headers.get('content-security-policy') ?? '')?.[1]
    expect(body).toContain(
      `<script nonce="${nonce}">parent.postMessage({"tessera":"refused","reason":"origin"},"https://evil.example")</script>`,
    )
    expect(body).not.toContain('_next')
    expect(refused.headers.get('content-security-policy')).toMatch(
      /; frame-ancestors https:\/\/evil\.example$/,
    )
    expect(refused.headers.get('x-middleware-next')).toBeNull()
    expect(refused.headers.get('strict-transport-security')).toBeNull()
    const overHttps = await proxy(
      new NextRequest(`https://tessera.example/frame?siteKey=${siteKey}`, {
        headers: {
          'sec-fetch-dest': 'iframe',
          'sec-fetch-site': 'cross-site',
          referer: 'https://evil.example/',
        },
      }),
    )
    expect(overHttps.status).toBe(403)
    expect(overHttps.headers.get('strict-transport-security')).toBe('max-age=31536000')
    // An unknown key says so.
    expect(await (await framedBy('https://evil.example', 'pk_unknown')).text()).toContain('"reason":"site"')

    // The allowed page, Tessera's own, and a request without the browser's word for who frames it
    // (no fetch metadata, no Referer) get the collector: frame-ancestors alone decides there.
    for (const response of [
      await framedBy('https://shop.example'),
      await framedBy('https://shop.example', siteKey, 'same-site'),
      await framedBy('http://127.0.0.1:3000', siteKey, 'same-origin'),
      await framedBy(undefined),
      await visit(`/frame?siteKey=${siteKey}`, { referer: 'https://evil.example/' }),
    ]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-security-policy')).toContain(
        "frame-ancestors 'self' https://shop.example",
      )
    }
    // Nor does a parent whose origin is no plain CSP source (a `,` or `;` in a URL's host would add
    // to the refusal's policy; an IPv6 address cannot be one): frame-ancestors alone keeps them out.
    for (const parent of ['http://a,script-src', 'http://a;sandbox', 'http://[::1]:4000', "http://a'b"]) {
      const response = await framedBy(parent)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-security-policy')).toContain(
        "frame-ancestors 'self' https://shop.example",
      )
    }
    // A Referer that is no URL refuses nothing either.
    expect(
      (
        await visit(`/frame?siteKey=${siteKey}`, {
          'sec-fetch-dest': 'iframe',
          'sec-fetch-site': 'cross-site',
          referer: 'nonsense',
        })
      ).status,
    ).toBe(200)
  })

  it('pin HTTPS (HSTS) only when the request came over HTTPS', async () => {
    expect((await visit('/')).headers.get('strict-transport-security')).toBeNull()
    const https = await proxy(new NextRequest('https://tessera.example/'))
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000')
    // No proxy is trusted here: a client saying HTTPS over plain HTTP is not believed.
    expect(
      (await visit('/', { 'x-forwarded-proto': 'https' })).headers.get('strict-transport-security'),
    ).toBeNull()
  })
})
