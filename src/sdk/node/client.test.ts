import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createClient } from './client'
import { verifyWebhook } from './verify-webhook'

/** A fetch that records each URL asked for and answers with `status` and `body`. */
function fakeFetch(status: number, body: unknown) {
  const urls: URL[] = []
  const fetch = (async (input: URL) => {
    urls.push(new URL(input))
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })
  }) as typeof globalThis.fetch
  return { fetch, urls }
}

const page = { events: [], nextCursor: null }

describe('createClient', () => {
  it('refuses to start without a secret key, instead of failing every call with 401', () => {
    expect(() => createClient({ endpoint: 'https://tessera.test', secretKey: '' })).toThrow(TypeError)
    const fromEnv = process.env.TESSERA_TEST_UNSET_SECRET as string
    expect(() => createClient({ endpoint: 'https://tessera.test', secretKey: fromEnv })).toThrow(/sk_/)
  })

  it('takes a page’s nextCursor back as it is, null on the first page', async () => {
    const { fetch, urls } = fakeFetch(200, page)
    const client = createClient({ endpoint: 'https://tessera.test', secretKey: 'sk_test', fetch })
    await client.searchEvents({ linkedId: 'acct-1', cursor: null })
    await client.searchEvents({ cursor: 'abc' })
    expect(urls.map((url) => url.search)).toEqual(['?linkedId=acct-1', '?cursor=abc'])
  })

  it('names Tessera’s own refusal by its code, and anything else as an unexpected answer', async () => {
    const refused = createClient({
      endpoint: 'https://tessera.test',
      secretKey: 'sk_test',
      fetch: fakeFetch(404, { error: { code: 'not_found', message: 'No event has this request ID.' } }).fetch,
    })
    await expect(refused.getEvent('req')).rejects.toMatchObject({ status: 404, code: 'not_found' })
    const proxy = createClient({
      endpoint: 'https://shop.test/metrics',
      secretKey: 'sk_test',
      fetch: fakeFetch(404, '<html>Not found</html>').fetch,
    })
    await expect(proxy.getEvent('req')).rejects.toMatchObject({ status: 404, code: 'unexpected_response' })
  })
})

describe('verifyWebhook', () => {
  const secret = 'whsec_test'
  const body = '{"event":{"requestId":"req"}}'
  const now = 1_800_000_000_000
  const sign = (at: number, text = body) =>
    `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${text}`).digest('hex')}`

  it('accepts a fresh, unaltered delivery', () => {
    expect(verifyWebhook(body, sign(now / 1000), secret, { now })).toBe(true)
  })

  it('refuses an altered, stale or unsigned one, and a repeated header, without throwing', () => {
    expect(verifyWebhook(`${body} `, sign(now / 1000), secret, { now })).toBe(false)
    expect(verifyWebhook(body, sign(now / 1000 - 301), secret, { now })).toBe(false)
    expect(verifyWebhook(body, undefined, secret, { now })).toBe(false)
    expect(verifyWebhook(body, [sign(now / 1000), sign(now / 1000)], secret, { now })).toBe(false)
    expect(verifyWebhook(body, sign(now / 1000), undefined, { now })).toBe(false)
  })
})
