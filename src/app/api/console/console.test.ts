import { beforeAll, describe, expect, it } from 'vitest'
import { ensureFirstOperator } from '@/server/console/ensure-first-operator'
import { getDb } from '@/server/db/client'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { GET as getEvent } from '../v1/events/[requestId]/route'
import { POST as identify } from '../v1/identify/route'
import * as decisions from './decisions/route'
import * as events from './events/route'
import * as keyById from './keys/[keyId]/route'
import * as keys from './keys/route'
import * as lookup from './lookup/route'
import * as overview from './overview/route'
import * as password from './password/route'
import * as rules from './rules/route'
import * as session from './session/route'
import * as siteById from './sites/[siteId]/route'
import * as sites from './sites/route'
import * as visitorById from './visitors/[visitorId]/route'
import * as webhookById from './webhooks/[webhookId]/route'
import * as webhooks from './webhooks/route'

const base = 'http://127.0.0.1:3000'
const PASSWORD = 'correct horse battery staple'

function request(path: string, init: { method?: string; body?: unknown; cookie?: string; ip?: string } = {}) {
  return new Request(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': init.ip ?? '10.0.0.1',
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

const params = <T>(value: T) => ({ params: Promise.resolve(value) })

async function signInCookie(): Promise<string> {
  const response = await session.POST(
    request('/api/console/session', { method: 'POST', body: { password: PASSWORD } }),
  )
  expect(response.status).toBe(200)
  const cookie = response.headers.get('set-cookie') ?? ''
  expect(cookie).toMatch(/^tessera_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Expires=/)
  return cookie.split(';')[0] ?? ''
}

beforeAll(async () => {
  const db = await getDb()
  await ensureDefaultSite({ db, origins: [] })
  const created = await ensureFirstOperator({ db, configuredPassword: PASSWORD })
  expect(created).toEqual({ created: true, generatedPassword: undefined })
  // A second start creates nothing and prints nothing.
  expect(await ensureFirstOperator({ db })).toEqual({ created: false })
})

describe('console sign-in', () => {
  it('signs in with the configured password and out again', async () => {
    const cookie = await signInCookie()
    const me = await session.GET(request('/api/console/session', { cookie }))
    expect(await me.json()).toEqual({ username: 'admin' })
    const out = await session.DELETE(request('/api/console/session', { method: 'DELETE', cookie }))
    expect(out.status).toBe(204)
    expect((await session.GET(request('/api/console/session', { cookie }))).status).toBe(401)
  })
})

describe('console endpoints without a session', () => {
  const endpoints: [string, () => Promise<Response>][] = [
    ['GET session', () => session.GET(request('/api/console/session'))],
    ['POST password', () => password.POST(request('/api/console/password', { method: 'POST', body: {} }))],
    ['GET sites', () => sites.GET(request('/api/console/sites'))],
    ['POST sites', () => sites.POST(request('/api/console/sites', { method: 'POST', body: {} }))],
    [
      'PATCH site',
      () =>
        siteById.PATCH(
          request('/api/console/sites/x', { method: 'PATCH', body: {} }),
          params({ siteId: 'x' }),
        ),
    ],
    ['POST keys', () => keys.POST(request('/api/console/keys', { method: 'POST', body: {} }))],
    [
      'DELETE key',
      () => keyById.DELETE(request('/api/console/keys/x', { method: 'DELETE' }), params({ keyId: 'x' })),
    ],
    ['POST webhooks', () => webhooks.POST(request('/api/console/webhooks', { method: 'POST', body: {} }))],
    [
      'GET webhook log',
      () => webhookById.GET(request('/api/console/webhooks/x'), params({ webhookId: 'x' })),
    ],
    [
      'DELETE webhook',
      () =>
        webhookById.DELETE(
          request('/api/console/webhooks/x', { method: 'DELETE' }),
          params({ webhookId: 'x' }),
        ),
    ],
    ['GET overview', () => overview.GET(request('/api/console/overview'))],
    ['GET events', () => events.GET(request('/api/console/events'))],
    ['GET lookup', () => lookup.GET(request('/api/console/lookup?q=x'))],
    ['GET rules', () => rules.GET(request('/api/console/rules'))],
    ['PUT rules', () => rules.PUT(request('/api/console/rules', { method: 'PUT', body: {} }))],
    ['GET decisions', () => decisions.GET(request('/api/console/decisions'))],
    [
      'DELETE visitor',
      () =>
        visitorById.DELETE(
          request('/api/console/visitors/x', { method: 'DELETE' }),
          params({ visitorId: 'x' }),
        ),
    ],
  ]
  for (const [label, call] of endpoints) {
    it(`${label} answers 401`, async () => {
      const response = await call()
      expect(response.status).toBe(401)
      expect((await response.json()).error.code).toBe('unauthorized')
    })
  }
})

describe('keys made in the console', () => {
  it('authorise the Server API until revoked', async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const created = await keys.POST(
      request('/api/console/keys', { method: 'POST', cookie, body: { siteId: site.id, name: 'checkout' } }),
    )
    expect(created.status).toBe(201)
    expect(created.headers.get('cache-control')).toBe('no-store')
    const { id, key } = await created.json()
    const identified = await (
      await identify(
        new Request(`${base}/api/v1/identify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ components: { a: { value: 1, duration: 1 } } }),
        }),
      )
    ).json()
    const read = () =>
      getEvent(
        new Request(`${base}/api/v1/events/${identified.requestId}`, {
          headers: { authorization: `Bearer ${key}` },
        }),
        params({ requestId: identified.requestId }),
      )
    expect((await read()).status).toBe(200)
    expect(
      (
        await keyById.DELETE(
          request(`/api/console/keys/${id}`, { method: 'DELETE', cookie }),
          params({ keyId: id }),
        )
      ).status,
    ).toBe(204)
    expect((await read()).status).toBe(401)
    // The site list shows the key as revoked and never its secret.
    const after = JSON.stringify(await (await sites.GET(request('/api/console/sites', { cookie }))).json())
    expect(after).not.toContain(key.split('.')[1])
    expect(after).toContain('"revokedAt":"')
  })

  it('show a webhook signing secret once, in the no-store answer that creates it', async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const created = await webhooks.POST(
      request('/api/console/webhooks', {
        method: 'POST',
        cookie,
        body: { siteId: site.id, url: 'https://shop.example/hooks/tessera' },
      }),
    )
    expect(created.status).toBe(201)
    expect(created.headers.get('cache-control')).toBe('no-store')
    const { secret } = await created.json()
    expect(secret).toMatch(/^whsec_/)
    const listing = await sites.GET(request('/api/console/sites', { cookie }))
    expect(listing.headers.get('cache-control')).toBe('no-store')
    const text = await listing.text()
    expect(text).toContain('https://shop.example/hooks/tessera')
    expect(text).not.toContain(secret)
    expect(text).not.toContain('whsec_')
  })

  it('validates site input with plain messages', async () => {
    const cookie = await signInCookie()
    const response = await sites.POST(
      request('/api/console/sites', {
        method: 'POST',
        cookie,
        body: { name: 'Shop', allowedOrigins: ['https://shop.example/path'] },
      }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toMatch(/scheme and host/)
  })
})

describe('webhooks made in the console', () => {
  it('refuses private, local, reserved and credential-carrying URLs with 400, and takes a public one', async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const create = (url: string) =>
      webhooks.POST(
        request('/api/console/webhooks', { method: 'POST', cookie, body: { siteId: site.id, url } }),
      )
    const refused = [
      'http://127.0.0.1/hook',
      'http://127.8.9.10:8080/hook',
      'http://localhost:3000/hook',
      'http://api.localhost/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/hook',
      'http://172.16.3.4/hook',
      'http://172.31.255.255/hook',
      'http://192.168.1.1/hook',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
      'http://224.0.0.1/hook',
      'http://255.255.255.255/hook',
      'http://240.0.0.1/hook',
      'http://[::1]/hook',
      'http://[::]/hook',
      'http://[fe80::1]/hook',
      'http://[fc00::1]/hook',
      'http://[fd12:3456::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:169.254.169.254]/hook',
      'http://[ff02::1]/hook',
      'http://2130706433/hook',
      'http://0x7f.1/hook',
      'http://0x7f000001/hook',
      'http://017700000001/hook',
      'http://127.1/hook',
      'http://0/hook',
      'http://user:pass@hooks.example/hook',
      'https://token@hooks.example/hook',
    ]
    for (const url of refused) {
      const response = await create(url)
      expect(response.status, url).toBe(400)
      expect((await response.json()).error.code, url).toBe('invalid_request')
    }
    const accepted = await create('https://hooks.example/tessera')
    expect(accepted.status).toBe(201)
  })
})

describe('rules in the console', () => {
  it('validates, saves with an audit entry, and reads back', async () => {
    const cookie = await signInCookie()
    const current = (await (await rules.GET(request('/api/console/rules', { cookie }))).json()).policy
    const bad = await rules.PUT(
      request('/api/console/rules', {
        method: 'PUT',
        cookie,
        body: { ...current, maxAccountsPerVisitor: 0 },
      }),
    )
    expect(bad.status).toBe(400)
    const saved = await rules.PUT(
      request('/api/console/rules', {
        method: 'PUT',
        cookie,
        body: { ...current, botRule: 'challenge', maxAccountsPerVisitor: 2 },
      }),
    )
    expect(saved.status).toBe(200)
    const after = await (await rules.GET(request('/api/console/rules', { cookie }))).json()
    expect(after.policy).toMatchObject({ botRule: 'challenge', maxAccountsPerVisitor: 2 })
    expect(after.audit[0]).toMatchObject({
      operator: 'admin',
      before: { botRule: 'deny' },
      after: { botRule: 'challenge' },
    })
  })
})

describe('console sign-in throttle', () => {
  it('slows down only the address that sent a wrong password', async () => {
    const wrong = await session.POST(
      request('/api/console/session', {
        method: 'POST',
        body: { username: 'admin', password: 'wrong' },
        ip: '10.0.0.9',
      }),
    )
    expect(wrong.status).toBe(401)
    expect((await wrong.json()).error.message).toBe('Wrong username or password.')
    const again = await session.POST(
      request('/api/console/session', { method: 'POST', body: { password: PASSWORD }, ip: '10.0.0.9' }),
    )
    expect(again.status).toBe(429)
    expect(again.headers.get('retry-after')).toBe('1')
    expect((await again.json()).error.message).toMatch(/wait 1 s before trying again/)
    // Another address signs in at once.
    const elsewhere = await session.POST(
      request('/api/console/session', { method: 'POST', body: { password: PASSWORD }, ip: '10.0.0.10' }),
    )
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.headers.get('cache-control')).toBe('no-store')
  })
})

// Last: it changes the admin password.
describe('changing the operator password', () => {
  const change = (cookie: string, newPassword: string, currentPassword = PASSWORD) =>
    password.POST(
      request('/api/console/password', { method: 'POST', cookie, body: { currentPassword, newPassword } }),
    )

  it('refuses a password that is easy to guess, with the sign-up rule’s reason', async () => {
    const cookie = await signInCookie()
    for (const weak of ['password1234', 'admin-admin-admin', 'tessera12345']) {
      const response = await change(cookie, weak)
      expect(response.status, weak).toBe(400)
      expect((await response.json()).error.message, weak).toMatch(
        /newPassword: This password is too easy to guess/,
      )
    }
  })

  it('ends every other session of the operator, and keeps the one that made the change', async () => {
    const laptop = await signInCookie()
    const phone = await signInCookie()
    const changed = await change(laptop, 'quartz-ember-harbour-51')
    expect(changed.status).toBe(200)
    expect((await session.GET(request('/api/console/session', { cookie: laptop }))).status).toBe(200)
    expect((await session.GET(request('/api/console/session', { cookie: phone }))).status).toBe(401)
    const withNew = await session.POST(
      request('/api/console/session', { method: 'POST', body: { password: 'quartz-ember-harbour-51' } }),
    )
    expect(withNew.status).toBe(200)
  })
})
