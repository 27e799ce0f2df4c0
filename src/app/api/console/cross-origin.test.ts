import { sql } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { getDb, queryRows } from '@/server/db/client'
import { OPERATOR_PASSWORD, startedTessera } from '../../../../tests/support/console-factories'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../tests/support/process-database'
import { POST as register } from '../registration/route'
import * as accountLabel from './accounts/[accountId]/label/route'
import * as consoleExport from './export/route'
import * as keyRevocation from './keys/[keyId]/revocation/route'
import * as keyById from './keys/[keyId]/route'
import * as keys from './keys/route'
import * as password from './password/route'
import * as reviewById from './reviews/[requestId]/route'
import * as reviews from './reviews/route'
import * as rulesPreview from './rules/preview/route'
import * as rules from './rules/route'
import * as sealingKeyById from './sealing-keys/[keyId]/route'
import * as sealingKeys from './sealing-keys/route'
import * as session from './session/route'
import * as siteLists from './sites/[siteId]/lists/route'
import * as siteById from './sites/[siteId]/route'
import * as siteWorkspace from './sites/[siteId]/workspace/route'
import * as sites from './sites/route'
import * as visitorLabel from './visitors/[visitorId]/label/route'
import * as visitorById from './visitors/[visitorId]/route'
import * as webhookDeletion from './webhooks/[webhookId]/deletion/route'
import * as webhookRetries from './webhooks/[webhookId]/retries/route'
import * as webhookById from './webhooks/[webhookId]/route'
import * as webhookTests from './webhooks/[webhookId]/tests/route'
import * as webhooks from './webhooks/route'

const own = 'http://127.0.0.1:3000'
// Same site as Tessera (same host, another port): SameSite=Strict cookies are sent from there.
const attacker = 'http://127.0.0.1:3999'
const PASSWORD = OPERATOR_PASSWORD

interface Sent {
  method?: string
  body?: string
  contentType?: string
  cookie?: string
  origin?: string
  fetchSite?: string
}

function request(path: string, sent: Sent = {}) {
  const headers: Record<string, string> = { host: '127.0.0.1:3000', 'x-forwarded-for': '10.0.0.1' }
  if (sent.contentType) headers['content-type'] = sent.contentType
  if (sent.cookie) headers.cookie = sent.cookie
  if (sent.origin) headers.origin = sent.origin
  if (sent.fetchSite) headers['sec-fetch-site'] = sent.fetchSite
  return new Request(`${own}${path}`, { method: sent.method ?? 'GET', headers, body: sent.body })
}

const params = <T>(value: T) => ({ params: Promise.resolve(value) })

async function signInCookie(): Promise<string> {
  const response = await session.POST(
    request('/api/console/session', {
      method: 'POST',
      body: JSON.stringify({ password: PASSWORD }),
      contentType: 'application/json',
      origin: own,
      fetchSite: 'same-origin',
    }),
  )
  expect(response.status).toBe(200)
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
}

async function webhookCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from webhooks`)
  return row?.n ?? -1
}

async function sessionCount(): Promise<number> {
  const db = await getDb()
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from operator_sessions`)
  return row?.n ?? -1
}

// Each test starts from an empty database of its own (the one route handlers read), holding what a
// started Tessera holds: the default site and the operator.
let siteId = ''

beforeEach(async () => {
  const { site } = await startedTessera(await freshProcessDatabase())
  siteId = site.id
})

afterAll(closeProcessDatabase)

describe('a signed-in operator’s browser, sent a forged request by a page of the same site', () => {
  const forgeries: [string, Sent][] = [
    ['a text/plain form', { contentType: 'text/plain', origin: attacker }],
    ['a JSON fetch', { contentType: 'application/json', origin: attacker }],
    ['a JSON fetch that says same-site', { contentType: 'application/json', fetchSite: 'same-site' }],
    ['a sandboxed frame (Origin: null)', { contentType: 'application/json', origin: 'null' }],
  ]

  for (const [label, forged] of forgeries) {
    it(`cannot create a webhook with ${label}`, async () => {
      const cookie = await signInCookie()
      const before = await webhookCount()
      const body = JSON.stringify({ siteId, url: 'https://attacker.example/hook' })
      const response = await webhooks.POST(
        request('/api/console/webhooks', { method: 'POST', body, cookie, ...forged }),
      )
      expect(response.status).toBe(403)
      expect((await response.json()).error).toEqual({
        code: 'cross_origin',
        message: 'This request must come from Tessera’s own pages.',
      })
      expect(await webhookCount()).toBe(before)
    })

    it(`cannot sign the browser in (login CSRF) with ${label}`, async () => {
      const before = await sessionCount()
      const response = await session.POST(
        request('/api/console/session', {
          method: 'POST',
          body: JSON.stringify({ password: PASSWORD }),
          ...forged,
        }),
      )
      expect(response.status).toBe(403)
      expect(response.headers.get('set-cookie')).toBeNull()
      expect(await sessionCount()).toBe(before)
    })
  }

  it('is refused on every other state-changing console and sign-up route', async () => {
    const cookie = await signInCookie()
    const forged = { cookie, origin: attacker, contentType: 'application/json', body: '{}' }
    const calls: [string, Promise<Response>][] = [
      ['password', password.POST(request('/api/console/password', { method: 'POST', ...forged }))],
      ['new site', sites.POST(request('/api/console/sites', { method: 'POST', ...forged }))],
      [
        'site',
        siteById.PATCH(
          request(`/api/console/sites/${siteId}`, { method: 'PATCH', ...forged }),
          params({ siteId }),
        ),
      ],
      [
        'site workspace',
        siteWorkspace.PUT(
          request(`/api/console/sites/${siteId}/workspace`, { method: 'PUT', ...forged }),
          params({ siteId }),
        ),
      ],
      ['new key', keys.POST(request('/api/console/keys', { method: 'POST', ...forged }))],
      [
        'key',
        keyById.DELETE(
          request('/api/console/keys/x', { method: 'DELETE', cookie, origin: attacker }),
          params({ keyId: 'x' }),
        ),
      ],
      [
        'webhook',
        webhookById.DELETE(
          request('/api/console/webhooks/x', { method: 'DELETE', cookie, origin: attacker }),
          params({ webhookId: 'x' }),
        ),
      ],
      [
        'new sealing key',
        sealingKeys.POST(
          request('/api/console/sealing-keys', {
            method: 'POST',
            ...forged,
            body: JSON.stringify({ siteId }),
          }),
        ),
      ],
      [
        'sealing key',
        sealingKeyById.DELETE(
          request('/api/console/sealing-keys/x', { method: 'DELETE', cookie, origin: attacker }),
          params({ keyId: 'x' }),
        ),
      ],
      ['rules', rules.PUT(request('/api/console/rules', { method: 'PUT', ...forged }))],
      [
        'rules preview',
        rulesPreview.POST(request('/api/console/rules/preview', { method: 'POST', ...forged })),
      ],
      [
        'key revocation undone',
        keyRevocation.DELETE(
          request('/api/console/keys/x/revocation', { method: 'DELETE', cookie, origin: attacker }),
          params({ keyId: 'x' }),
        ),
      ],
      [
        'webhook deletion undone',
        webhookDeletion.DELETE(
          request('/api/console/webhooks/x/deletion', { method: 'DELETE', cookie, origin: attacker }),
          params({ webhookId: 'x' }),
        ),
      ],
      [
        'test delivery',
        webhookTests.POST(
          request('/api/console/webhooks/x/tests', { method: 'POST', ...forged }),
          params({ webhookId: 'x' }),
        ),
      ],
      [
        'retry',
        webhookRetries.POST(
          request('/api/console/webhooks/x/retries', {
            method: 'POST',
            ...forged,
            body: '{"deliveryId":"d"}',
          }),
          params({ webhookId: 'x' }),
        ),
      ],
      [
        'visitor',
        visitorById.DELETE(
          request('/api/console/visitors/x', { method: 'DELETE', cookie, origin: attacker }),
          params({ visitorId: 'x' }),
        ),
      ],
      [
        'site lists',
        siteLists.PUT(
          request(`/api/console/sites/${siteId}/lists`, {
            method: 'PUT',
            ...forged,
            body: '{"deny":[],"allow":["0.0.0.0/0"]}',
          }),
          params({ siteId }),
        ),
      ],
      [
        'visitor label',
        visitorLabel.PUT(
          request('/api/console/visitors/x/label', { method: 'PUT', ...forged, body: '{"label":"good"}' }),
          params({ visitorId: 'x' }),
        ),
      ],
      [
        'visitor label removed',
        visitorLabel.DELETE(
          request('/api/console/visitors/x/label', { method: 'DELETE', cookie, origin: attacker }),
          params({ visitorId: 'x' }),
        ),
      ],
      [
        'account label',
        accountLabel.PUT(
          request('/api/console/accounts/x/label', { method: 'PUT', ...forged, body: '{"label":"good"}' }),
          params({ accountId: 'x' }),
        ),
      ],
      [
        'account label removed',
        accountLabel.DELETE(
          request('/api/console/accounts/x/label', { method: 'DELETE', cookie, origin: attacker }),
          params({ accountId: 'x' }),
        ),
      ],
      [
        'review',
        reviews.POST(
          request('/api/console/reviews', {
            method: 'POST',
            ...forged,
            body: '{"requestId":"r","verdict":"approve"}',
          }),
        ),
      ],
      [
        'undo a review',
        reviewById.DELETE(
          request('/api/console/reviews/r', { method: 'DELETE', cookie, origin: attacker }),
          params({ requestId: 'r' }),
        ),
      ],
      [
        'sign-out',
        session.DELETE(request('/api/console/session', { method: 'DELETE', cookie, origin: attacker })),
      ],
      ['sign-up', register(request('/api/registration', { method: 'POST', ...forged }))],
    ]
    for (const [label, call] of calls) {
      const response = await call
      expect(response.status, label).toBe(403)
      expect((await response.json()).error.code, label).toBe('cross_origin')
    }
    const [sealing] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select count(*)::int as n from sealing_keys`,
    )
    expect(sealing?.n).toBe(0)
    const [allowed] = await queryRows<{ allow: string[] }>(
      await getDb(),
      sql`select allow_list as allow from sites where id = ${siteId}`,
    )
    expect(allowed?.allow).toEqual([])
    // The session survived the forged sign-out.
    expect((await session.GET(request('/api/console/session', { cookie }))).status).toBe(200)
  })
})

describe('a signed-in operator’s browser, made to read by a page of another site or port', () => {
  it('streams no export and reads no look-up for it, and still does for the console itself', async () => {
    const cookie = await signInCookie()
    const path = '/api/console/export?kind=events&format=csv'
    for (const fetchSite of ['same-site', 'cross-site']) {
      const response = await consoleExport.GET(request(path, { cookie, fetchSite }))
      expect(response.status).toBe(403)
      expect((await response.json()).error.code).toBe('cross_origin')
    }
    for (const sent of [{ fetchSite: 'same-origin' }, { fetchSite: 'none' }, {}]) {
      const response = await consoleExport.GET(request(path, { cookie, ...sent }))
      expect(response.status).toBe(200)
      await response.body?.cancel()
    }
  })
})

describe('Tessera’s own pages', () => {
  it('create a webhook with a same-origin JSON request, by Origin or by Sec-Fetch-Site', async () => {
    const cookie = await signInCookie()
    const body = JSON.stringify({ siteId, url: 'https://shop.example/hook' })
    for (const sent of [{ origin: own }, { fetchSite: 'same-origin', origin: own }]) {
      const response = await webhooks.POST(
        request('/api/console/webhooks', {
          method: 'POST',
          body,
          cookie,
          contentType: 'application/json',
          ...sent,
        }),
      )
      expect(response.status).toBe(201)
    }
  })

  it('must send JSON: a same-origin text/plain body is 415 and changes nothing', async () => {
    const cookie = await signInCookie()
    const before = await webhookCount()
    const body = JSON.stringify({ siteId, url: 'https://shop.example/plain' })
    const response = await webhooks.POST(
      request('/api/console/webhooks', {
        method: 'POST',
        body,
        cookie,
        contentType: 'text/plain',
        origin: own,
      }),
    )
    expect(response.status).toBe(415)
    expect((await response.json()).error.code).toBe('unsupported_media_type')
    expect(await webhookCount()).toBe(before)
  })

  it('accept the configured public URL as the origin behind a proxy that rewrites Host', async () => {
    const { requireSameOrigin } = await import('@/server/http/same-origin')
    const proxied = new Request('http://internal:3000/api/console/keys', {
      method: 'POST',
      headers: {
        host: 'internal:3000',
        origin: 'https://tessera.example.com',
        'content-type': 'application/json',
      },
    })
    expect(() => requireSameOrigin(proxied, 'https://tessera.example.com')).not.toThrow()
    expect(() => requireSameOrigin(proxied, undefined)).toThrow(/own pages/)
  })
})
