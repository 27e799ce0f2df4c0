import { unsealEventsResponse } from '@fingerprint/node-sdk'
import { sql } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { EventDetail, NetworkVisitors, Overview, SiteSummary, VisitorPanel } from '@/contracts/console'
import { ensureFirstOperator } from '@/server/console/ensure-first-operator'
import { recordWrongPassword } from '@/server/console/sign-in-throttle'
import { type Database, queryRows } from '@/server/db/client'
import { visitorLabels } from '@/server/db/schema'
import { deliverDueWebhooks } from '@/server/webhooks/deliver-due-webhooks'
import { OPERATOR_PASSWORD, startedTessera } from '../../../../tests/support/console-factories'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../tests/support/process-database'
import { syntheticDevice } from '../../../../tests/support/synthetic-devices'
import { GET as getEvent } from '../v1/events/[requestId]/route'
import { POST as identify } from '../v1/identify/route'
import * as decisions from './decisions/route'
import * as eventById from './events/[requestId]/route'
import * as events from './events/route'
import * as keyRestore from './keys/[keyId]/revocation/route'
import * as keyById from './keys/[keyId]/route'
import * as keys from './keys/route'
import * as lookup from './lookup/route'
import * as network from './network/route'
import * as overview from './overview/route'
import * as password from './password/route'
import * as rules from './rules/route'
import * as sealingKeyById from './sealing-keys/[keyId]/route'
import * as sealingKeys from './sealing-keys/route'
import * as sessionChallenge from './session/challenge/route'
import * as session from './session/route'
import * as siteLists from './sites/[siteId]/lists/route'
import * as siteById from './sites/[siteId]/route'
import * as sites from './sites/route'
import * as visitorById from './visitors/[visitorId]/route'
import * as webhookDelivery from './webhooks/[webhookId]/deliveries/[deliveryId]/route'
import * as webhookRetries from './webhooks/[webhookId]/retries/route'
import * as webhookById from './webhooks/[webhookId]/route'
import * as webhookTests from './webhooks/[webhookId]/tests/route'
import * as webhooks from './webhooks/route'

const base = 'http://127.0.0.1:3000'
const PASSWORD = OPERATOR_PASSWORD

function request(
  path: string,
  init: { method?: string; body?: unknown; cookie?: string; ip?: string; https?: boolean } = {},
) {
  return new Request(`${init.https ? base.replace('http:', 'https:') : base}${path}`, {
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

// Each test starts from an empty database of its own (the one route handlers read), then makes
// what it needs: most start from what a started Tessera holds, the default site and the operator.
let db: Database

beforeEach(async () => {
  db = await freshProcessDatabase()
})

afterAll(closeProcessDatabase)

/** For a describe whose tests all start from a started Tessera: the default site and the operator. */
function givenStartedTessera() {
  beforeEach(async () => {
    await startedTessera(db)
  })
}

describe('the first operator', () => {
  it('is created from the configured password at the first start, and never again', async () => {
    const created = await ensureFirstOperator({ db, configuredPassword: PASSWORD })
    expect(created).toEqual({ created: true, generatedPassword: undefined })
    // A second start creates nothing and prints nothing.
    expect(await ensureFirstOperator({ db })).toEqual({ created: false })
  })
})

describe('console sign-in', () => {
  givenStartedTessera()

  it('signs in with the configured password and out again', async () => {
    const cookie = await signInCookie()
    const me = await session.GET(request('/api/console/session', { cookie }))
    expect(await me.json()).toEqual({ username: 'admin', role: 'owner' })
    const out = await session.DELETE(request('/api/console/session', { method: 'DELETE', cookie }))
    expect(out.status).toBe(204)
    expect((await session.GET(request('/api/console/session', { cookie }))).status).toBe(401)
  })

  it('over HTTPS names the session __Host- and reads it under that name alone (no cookie tossing)', async () => {
    const https = { https: true }
    const signedIn = await session.POST(
      request('/api/console/session', { ...https, method: 'POST', body: { password: PASSWORD } }),
    )
    expect(signedIn.status).toBe(200)
    const setCookie = signedIn.headers.get('set-cookie') ?? ''
    // What a browser requires to keep a __Host- cookie: Secure, Path=/, no Domain.
    expect(setCookie).toMatch(
      /^__Host-tessera_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Expires=.+; Secure$/,
    )
    expect(setCookie).not.toMatch(/Domain=/i)
    const token = setCookie.split(';')[0]?.split('=')[1] ?? ''
    const asHost = `__Host-tessera_session=${token}`
    expect((await session.GET(request('/api/console/session', { ...https, cookie: asHost }))).status).toBe(
      200,
    )
    // The same token under the plain name, as a sibling subdomain could set it: no session.
    const tossed = `tessera_session=${token}`
    expect((await session.GET(request('/api/console/session', { ...https, cookie: tossed }))).status).toBe(
      401,
    )
    expect((await sites.GET(request('/api/console/sites', { ...https, cookie: tossed }))).status).toBe(401)
    // Over plain HTTP the prefixed name is not read either: one name per scheme.
    expect((await session.GET(request('/api/console/session', { cookie: asHost }))).status).toBe(401)
    const out = await session.DELETE(
      request('/api/console/session', { ...https, method: 'DELETE', cookie: asHost }),
    )
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-tessera_session=; Path=\/; Max-Age=0;.*Secure$/)
    expect((await session.GET(request('/api/console/session', { ...https, cookie: asHost }))).status).toBe(
      401,
    )
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
    [
      'POST sealing keys',
      () => sealingKeys.POST(request('/api/console/sealing-keys', { method: 'POST', body: {} })),
    ],
    [
      'DELETE sealing key',
      () =>
        sealingKeyById.DELETE(
          request('/api/console/sealing-keys/x', { method: 'DELETE' }),
          params({ keyId: 'x' }),
        ),
    ],
    ['GET overview', () => overview.GET(request('/api/console/overview'))],
    ['GET events', () => events.GET(request('/api/console/events'))],
    ['GET lookup', () => lookup.GET(request('/api/console/lookup?q=x'))],
    ['GET network', () => network.GET(request('/api/console/network?q=198.51.100.0/24'))],
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
  givenStartedTessera()

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
          body: JSON.stringify({ components: { timezone: { value: 'UTC', duration: 1 } } }),
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
    // A revocation can be undone for a few minutes, then no more.
    const restore = () =>
      keyRestore.DELETE(
        request(`/api/console/keys/${id}/revocation`, { method: 'DELETE', cookie }),
        params({ keyId: id }),
      )
    expect((await restore()).status).toBe(204)
    expect((await read()).status).toBe(200)
    expect((await restore()).status).toBe(409)
    await keyById.DELETE(
      request(`/api/console/keys/${id}`, { method: 'DELETE', cookie }),
      params({ keyId: id }),
    )
    await db.execute(sql`update api_keys set revoked_at = revoked_at - interval '6 minutes' where id = ${id}`)
    const late = await restore()
    expect(late.status).toBe(409)
    expect((await late.json()).error.message).toMatch(/can be undone for 5 minutes/)
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

  it('takes an origin as an operator types it, and stores it as browsers send it', async () => {
    const cookie = await signInCookie()
    const created = await sites.POST(
      request('/api/console/sites', {
        method: 'POST',
        cookie,
        body: {
          name: 'Typed shop',
          allowedOrigins: ['https://typed.example/', ' HTTPS://Typed.Example:443 ', 'http://localhost:8080/'],
        },
      }),
    )
    expect(created.status).toBe(201)
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { name: string }) => entry.name === 'Typed shop')
    expect(site.allowedOrigins).toEqual(['https://typed.example', 'http://localhost:8080'])
  })
})

describe('deny and allow lists made in the console', () => {
  givenStartedTessera()

  it('flag identifications from a denied range, and refuse an entry that is none of the kinds with 400, changing nothing', async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const put = (deny: unknown, allow: unknown = []) =>
      siteLists.PUT(
        request(`/api/console/sites/${site.id}/lists`, {
          method: 'PUT',
          cookie,
          body: { deny, allow },
        }),
        params({ siteId: site.id }),
      )
    expect((await put(['203.0.113.9/24', '2001:db8::/32', 'Spam.example'], ['198.51.100.7'])).status).toBe(
      200,
    )
    const refused = await put(['198.51.100.0/24', 'shop example'])
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toMatch(/shop example.*is not an IP address/)
    const onBoth = await put(['198.51.100.7'], ['198.51.100.7'])
    expect(onBoth.status).toBe(400)
    const listed = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const saved = listed.sites.find((entry: { id: string }) => entry.id === site.id)
    expect([saved.denyList, saved.allowList]).toEqual([
      ['203.0.113.0/24', '2001:db8::/32', '@spam.example'],
      ['198.51.100.7'],
    ])
    const identifyFrom = async (ip: string) =>
      (await (
        await identify(
          new Request(`${base}/api/v1/identify`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
            body: JSON.stringify({ components: syntheticDevice(91) }),
          }),
        )
      ).json()) as { signals: Record<string, { result: unknown; kind?: string }>; suspectScore: number }
    const blocked = await identifyFrom('203.0.113.200')
    expect(blocked.signals.ipBlocklist).toEqual({
      result: true,
      reasons: ["The address is in this site's blocklist."],
    })
    const clean = await identifyFrom('198.51.100.1')
    expect(clean.signals.ipBlocklist).toMatchObject({ result: false })
    expect(blocked.suspectScore - clean.suspectScore).toBe(10)
  })
})

describe('webhooks made in the console', () => {
  givenStartedTessera()

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
    // The refusal of a private address names the test-only setting that would allow it, and why not.
    const privateRefusal = (await (await create('http://10.0.0.5/hook')).json()).error.message
    expect(privateRefusal).toContain('TESSERA_WEBHOOK_ALLOW_PRIVATE=1')
    expect(privateRefusal).toContain('never in production')
    const accepted = await create('https://hooks.example/tessera')
    expect(accepted.status).toBe(201)
  })
})

describe('debugging a webhook from the console', () => {
  givenStartedTessera()

  it('sends a test delivery through the outbox, logs each attempt, and retries one at once', async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const { id: webhookId } = await (
      await webhooks.POST(
        request('/api/console/webhooks', {
          method: 'POST',
          cookie,
          body: { siteId: site.id, url: 'https://hooks.example/tessera' },
        }),
      )
    ).json()
    const queued = await webhookTests.POST(
      request(`/api/console/webhooks/${webhookId}/tests`, { method: 'POST', cookie, body: {} }),
      params({ webhookId }),
    )
    expect(queued.status).toBe(201)
    const { deliveryId } = await queued.json()
    // The receiver's name does not resolve (as offline): the attempt fails and is logged so.
    const unreachable = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example'), { code: 'ENOTFOUND' })
    }
    expect(await deliverDueWebhooks({ db, resolve: unreachable })).toBe(1)
    const detail = async () =>
      (
        await webhookDelivery.GET(
          request(`/api/console/webhooks/${webhookId}/deliveries/${deliveryId}`, { cookie }),
          params({ webhookId, deliveryId }),
        )
      ).json()
    const afterOne = await detail()
    expect(afterOne.delivery).toMatchObject({ eventType: 'test', attempts: 1, deliveredAt: null })
    expect(afterOne.attempts).toEqual([
      expect.objectContaining({
        status: null,
        error: expect.stringMatching(/ENOTFOUND/),
        responseBody: null,
      }),
    ])
    expect(JSON.parse(afterOne.attempts[0].requestBody)).toMatchObject({
      type: 'test',
      event: { tag: { test: true }, siteKey: site.publicKey },
    })
    expect(afterOne.attempts[0].requestHeaders['tessera-signature']).toMatch(/^t=\d+,v1=/)
    // Not due again for a while; "retry now" makes it due at once.
    expect(await deliverDueWebhooks({ db, resolve: unreachable })).toBe(0)
    const retried = await webhookRetries.POST(
      request(`/api/console/webhooks/${webhookId}/retries`, { method: 'POST', cookie, body: { deliveryId } }),
      params({ webhookId }),
    )
    expect(retried.status).toBe(204)
    expect(await deliverDueWebhooks({ db, resolve: unreachable })).toBe(1)
    expect((await detail()).attempts).toHaveLength(2)
    // Another webhook's delivery, or an unknown one, is not found.
    const stranger = await webhookRetries.POST(
      request('/api/console/webhooks/wh_other/retries', { method: 'POST', cookie, body: { deliveryId } }),
      params({ webhookId: 'wh_other' }),
    )
    expect(stranger.status).toBe(404)
  })
})

describe('webhook formats', () => {
  givenStartedTessera()

  it("takes Tessera's or Fingerprint v4's format, lists it, and refuses any other", async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const create = (format: unknown) =>
      webhooks.POST(
        request('/api/console/webhooks', {
          method: 'POST',
          cookie,
          body: { siteId: site.id, url: 'https://hooks.example/fingerprint', format },
        }),
      )
    expect((await create('fingerprint-v4')).status).toBe(201)
    for (const format of ['fingerprint', 'v4', 42, null]) {
      const response = await create(format)
      expect(response.status, String(format)).toBe(400)
      expect((await response.json()).error.message).toMatch(/^format:/)
    }
    const { sites: after } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const formats = after
      .find((entry: { isDefault: boolean }) => entry.isDefault)
      .webhooks.filter((webhook: { url: string }) => webhook.url === 'https://hooks.example/fingerprint')
      .map((webhook: { format: string }) => webhook.format)
    expect(formats).toEqual(['fingerprint-v4'])
  })

  it("takes sign-up decisions in Tessera's format only, and at least one kind of event", async () => {
    const cookie = await signInCookie()
    const { sites: list } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const site = list.find((entry: { isDefault: boolean }) => entry.isDefault)
    const create = (format: string, events: unknown) =>
      webhooks.POST(
        request('/api/console/webhooks', {
          method: 'POST',
          cookie,
          body: { siteId: site.id, url: 'https://hooks.example/signups', format, events },
        }),
      )
    const refused = await create('fingerprint-v4', ['identification', 'signup'])
    expect(refused.status).toBe(400)
    expect((await refused.json()).error.details.fields.events).toMatch(/Tessera's format/)
    expect((await create('tessera', [])).status).toBe(400)
    expect((await create('tessera', ['purchase'])).status).toBe(400)
    const created = await create('tessera', ['signup', 'signup'])
    expect(created.status).toBe(201)
    expect((await created.json()).events).toEqual(['signup'])
  })
})

describe('sealing keys made in the console', () => {
  givenStartedTessera()

  async function identifySealed(siteKey: string) {
    const response = await identify(
      new Request(`${base}/api/v1/identify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ components: syntheticDevice(77), siteKey }),
      }),
    )
    expect(response.status).toBe(200)
    return (await response.json()) as { requestId: string; sealed_result?: string }
  }
  const open = (sealed: string, ...keys: string[]) =>
    unsealEventsResponse(
      Buffer.from(sealed, 'base64'),
      keys.map((key) => ({ key: Buffer.from(key, 'base64'), algorithm: 'aes-256-gcm' as const })),
    )

  it('seal with the oldest key, rotate through a second, and are shown only once', async () => {
    const cookie = await signInCookie()
    const created = await sites.POST(
      request('/api/console/sites', {
        method: 'POST',
        cookie,
        body: { name: 'Sealed shop', allowedOrigins: [] },
      }),
    )
    const site = (await created.json()) as { id: string; publicKey: string }
    expect((await identifySealed(site.publicKey)).sealed_result).toBeUndefined()
    const create = () =>
      sealingKeys.POST(
        request('/api/console/sealing-keys', { method: 'POST', cookie, body: { siteId: site.id } }),
      )

    const firstAnswer = await create()
    expect(firstAnswer.status).toBe(201)
    expect(firstAnswer.headers.get('cache-control')).toBe('no-store')
    const first = (await firstAnswer.json()) as { id: string; key: string; sealing: boolean }
    expect(first.sealing).toBe(true)
    expect(Buffer.from(first.key, 'base64')).toHaveLength(32)
    const sealedOnce = await identifySealed(site.publicKey)
    expect((await open(sealedOnce.sealed_result ?? '', first.key)).event_id).toBe(sealedOnce.requestId)
    // The analyst's label stays out of what passes through the browser, sealed or not: its length would tell it.
    const opened = await open(sealedOnce.sealed_result ?? '', first.key)
    await db
      .insert(visitorLabels)
      .values({ visitorId: opened.identification?.visitor_id ?? '', label: 'fraud', operator: 'admin' })
    const labelled = await identifySealed(site.publicKey)
    expect(await open(labelled.sealed_result ?? '', first.key)).not.toHaveProperty('suspect')
    await db.delete(visitorLabels)

    // Rotation: the second key is the next one; the first still seals until it is removed.
    const second = (await (await create()).json()) as { id: string; key: string; sealing: boolean }
    expect(second.sealing).toBe(false)
    const duringRotation = await identifySealed(site.publicKey)
    await expect(open(duringRotation.sealed_result ?? '', second.key)).rejects.toThrow()
    expect((await open(duringRotation.sealed_result ?? '', second.key, first.key)).event_id).toBe(
      duringRotation.requestId,
    )
    const third = await create()
    expect(third.status).toBe(409)
    expect((await third.json()).error.code).toBe('conflict')

    // Never shown again, not even in part.
    const listing = await (await sites.GET(request('/api/console/sites', { cookie }))).text()
    for (const key of [first.key, second.key]) {
      expect(listing).not.toContain(key)
      expect(listing).not.toContain(Buffer.from(key, 'base64').toString('base64url'))
    }
    const mine = JSON.parse(listing).sites.find((entry: { id: string }) => entry.id === site.id)
    expect(mine.sealingKeys.map((key: { id: string }) => key.id)).toEqual([first.id, second.id])
    expect(JSON.parse(listing).sealingKeysEncrypted).toBe(false)

    const remove = (id: string) =>
      sealingKeyById.DELETE(
        request(`/api/console/sealing-keys/${id}`, { method: 'DELETE', cookie }),
        params({ keyId: id }),
      )
    expect((await remove(first.id)).status).toBe(204)
    const afterRotation = await identifySealed(site.publicKey)
    expect((await open(afterRotation.sealed_result ?? '', second.key)).event_id).toBe(afterRotation.requestId)
    await expect(open(afterRotation.sealed_result ?? '', first.key)).rejects.toThrow()
    expect((await remove(first.id)).status).toBe(404)
    expect((await remove(second.id)).status).toBe(204)
    expect((await identifySealed(site.publicKey)).sealed_result).toBeUndefined()

    // Every change is in the audit trail, by whom, with key IDs and never key material.
    const audit = await queryRows<{ operator: string; before: unknown; after: unknown }>(
      db,
      sql`select operator, before, after from settings_audit where key = ${`sealing-keys:${site.id}`} order by id`,
    )
    expect(audit.map((entry) => entry.operator)).toEqual(['admin', 'admin', 'admin', 'admin'])
    expect(audit[1]?.after).toEqual({
      keys: [expect.objectContaining({ id: first.id }), expect.objectContaining({ id: second.id })],
    })
    expect(JSON.stringify(audit)).not.toContain(first.key)
    const { sites: withHistory } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    expect(withHistory.find((entry: { id: string }) => entry.id === site.id).sealingKeyChanges).toHaveLength(
      4,
    )
    // The listing is exactly what the contract the panels read describes (parsing drops unknown keys).
    expect(SiteSummary.array().parse(withHistory)).toEqual(withHistory)
  })

  it('refuses a key for a site that does not exist', async () => {
    const cookie = await signInCookie()
    const response = await sealingKeys.POST(
      request('/api/console/sealing-keys', { method: 'POST', cookie, body: { siteId: 'site_nope' } }),
    )
    expect(response.status).toBe(404)
  })
})

describe('console panels, as their contracts describe them', () => {
  givenStartedTessera()

  it('answers a visitor look-up as its contract describes it', async () => {
    const cookie = await signInCookie()
    const identified = await (
      await identify(
        new Request(`${base}/api/v1/identify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.23' },
          body: JSON.stringify({ components: syntheticDevice(4242), linkedId: 'account-4242' }),
        }),
      )
    ).json()
    const response = await lookup.GET(request(`/api/console/lookup?q=${identified.requestId}`, { cookie }))
    expect(response.status).toBe(200)
    const panel = await response.json()
    expect(panel.visitorId).toBe(identified.visitorId)
    expect(panel.linkedIds).toEqual(['account-4242'])
    expect(VisitorPanel.parse(panel)).toEqual(panel)
  })

  it('opens one event in full, with the sign-up decision it served, as its contract describes it', async () => {
    const cookie = await signInCookie()
    const identified = await (
      await identify(
        new Request(`${base}/api/v1/identify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.24' },
          body: JSON.stringify({
            components: syntheticDevice(4243),
            linkedId: 'account-4243',
            tag: { plan: 'pro' },
            url: 'https://shop.example/signup',
          }),
        }),
      )
    ).json()
    await db.execute(
      sql`insert into signup_decisions (request_id, visitor_id, ip, email, outcome, reasons, challenge_solved)
          values (${identified.requestId}, ${identified.visitorId}, '198.51.100.24', 'ada@example.com', 'challenge',
                  ${JSON.stringify([{ rule: 'tampering', outcome: 'challenge', message: 'The browser shows signs of tampering.' }])}::jsonb, false)`,
    )
    const open = (requestId: string) =>
      eventById.GET(request(`/api/console/events/${requestId}`, { cookie }), params({ requestId }))
    const response = await open(identified.requestId)
    expect(response.status).toBe(200)
    const detail = await response.json()
    expect(EventDetail.parse(detail)).toEqual(detail)
    expect(detail).toMatchObject({
      event: {
        requestId: identified.requestId,
        linkedId: 'account-4243',
        tag: { plan: 'pro' },
        url: 'https://shop.example/signup',
      },
      siteName: expect.any(String),
      method: 'new',
      decision: { outcome: 'challenge', email: 'ada@example.com', reasons: [{ rule: 'tampering' }] },
    })
    expect((await open('req_unknown')).status).toBe(404)
  })

  it('lists the visitors of an address or a range, and refuses what is neither or too wide', async () => {
    const cookie = await signInCookie()
    const from = async (seed: number, address: string) =>
      (
        await identify(
          new Request(`${base}/api/v1/identify`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
            body: JSON.stringify({ components: syntheticDevice(seed), linkedId: `account-${seed}` }),
          }),
        )
      ).json()
    const home = await from(5101, '192.0.2.10')
    const neighbour = await from(5102, '192.0.2.200')
    const elsewhere = await from(5103, '192.0.3.10')
    const look = async (q: string) =>
      network.GET(request(`/api/console/network?q=${encodeURIComponent(q)}`, { cookie }))

    const address = await (await look('192.0.2.10')).json()
    expect(NetworkVisitors.parse(address)).toEqual(address)
    expect(address.visitors.map((visitor: { visitorId: string }) => visitor.visitorId)).toEqual([
      home.visitorId,
    ])
    expect(address.visitors[0]).toMatchObject({ ips: ['192.0.2.10'], linkedIds: ['account-5101'], events: 1 })

    const ids = async (q: string) =>
      ((await (await look(q)).json()).visitors as { visitorId: string }[]).map((visitor) => visitor.visitorId)
    expect(await ids('192.0.2.0/24')).toEqual([neighbour.visitorId, home.visitorId])
    expect(await ids('192.0.2.128/25')).toEqual([neighbour.visitorId])
    expect(await ids('192.0.0.0/16')).toEqual([elsewhere.visitorId, neighbour.visitorId, home.visitorId])
    expect(await ids('2001:db8::/48')).toEqual([])

    for (const [q, message] of [
      ['10.0.0.0/8', /a \/16 \(IPv6: \/48\) or a narrower range/],
      ['not an address', /not an address or a CIDR range/],
      ['192.0.2.1/33', /not an address or a CIDR range/],
    ] as const) {
      const response = await look(q)
      expect(response.status).toBe(400)
      expect((await response.json()).error.message).toMatch(message)
    }
  })

  it('answers the overview as its contract describes it', async () => {
    const cookie = await signInCookie()
    // Before anything happened: every figure a zero, none missing.
    const empty = await (await overview.GET(request('/api/console/overview?range=24h', { cookie }))).json()
    expect(Overview.parse(empty)).toEqual(empty)
    expect(empty.signups).toEqual({ allow: 0, challenge: 0, deny: 0 })
    expect(empty.totals).toMatchObject({ identifications: 0, visitors: 0, bots: 0 })
    // Two identifications, so the figures and the series have something to describe.
    for (const seed of [31, 32]) {
      const response = await identify(
        new Request(`${base}/api/v1/identify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ components: syntheticDevice(seed) }),
        }),
      )
      expect(response.status).toBe(200)
    }
    for (const range of ['24h', '7d', '30d']) {
      const answer = await (
        await overview.GET(request(`/api/console/overview?range=${range}`, { cookie }))
      ).json()
      expect(Overview.parse(answer)).toEqual(answer)
      expect(answer.range).toBe(range)
      expect(answer.totals.identifications).toBe(2)
    }
  })

  it('answers the sites listing as its contract describes it, keys and webhooks included', async () => {
    const cookie = await signInCookie()
    const { sites: before } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const siteId = before.find((entry: { isDefault: boolean }) => entry.isDefault).id
    const post = (route: { POST(request: Request): Promise<Response> }, path: string, body: unknown) =>
      route.POST(request(path, { method: 'POST', cookie, body }))
    const key = await (await post(keys, '/api/console/keys', { siteId, name: 'checkout' })).json()
    await post(keys, '/api/console/keys', { siteId, name: 'reports' })
    await keyById.DELETE(
      request(`/api/console/keys/${key.id}`, { method: 'DELETE', cookie }),
      params({ keyId: key.id }),
    )
    for (const format of ['tessera', 'fingerprint-v4'])
      await post(webhooks, '/api/console/webhooks', {
        siteId,
        url: `https://hooks.example/${format}`,
        format,
      })
    expect((await post(sealingKeys, '/api/console/sealing-keys', { siteId })).status).toBe(201)

    const { sites: listing } = await (await sites.GET(request('/api/console/sites', { cookie }))).json()
    const mine = listing.find((entry: { id: string }) => entry.id === siteId)
    expect([mine.apiKeys.length, mine.webhooks.length, mine.sealingKeys.length]).toEqual([2, 2, 1])
    expect(SiteSummary.array().parse(listing)).toEqual(listing)
  })
})

describe('rules in the console', () => {
  givenStartedTessera()

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
  givenStartedTessera()

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

  it('hands out a puzzle of the size the account’s failures ask for', async () => {
    const sizeOf = async (username: string, ip: string) => {
      const response = await sessionChallenge.GET(
        request(`/api/console/session/challenge?username=${encodeURIComponent(username)}`, { ip }),
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      const challenge = (await response.json()) as { parameters: { data: { difficulty: number } } }
      return challenge.parameters.data.difficulty
    }
    const usual = await sizeOf('admin', '10.0.2.1')
    // Eight wrong passwords for the account, each from an address of its own.
    for (let guess = 0; guess < 8; guess++) {
      const answer = await session.POST(
        request('/api/console/session', {
          method: 'POST',
          body: { password: `wrong-${guess}` },
          ip: `10.0.3.${guess}`,
        }),
      )
      expect(answer.status).toBe(guess < 5 ? 401 : 403)
    }
    expect(await sizeOf('admin', '10.0.2.1')).toBe(usual)
    // Ten more (as if each came with a solved puzzle): fifteen in all, the puzzle is four times the size.
    for (let guess = 0; guess < 10; guess++) {
      await recordWrongPassword({ db, username: 'admin', ip: `10.0.4.${guess}` })
    }
    expect(await sizeOf('Admin', '10.0.2.1')).toBe(4 * usual)
    expect(await sizeOf('someone-else', '10.0.2.1')).toBe(usual)
    const refused = await sessionChallenge.GET(
      request(`/api/console/session/challenge?username=${'x'.repeat(65)}`, { ip: '10.0.2.1' }),
    )
    expect(refused.status).toBe(400)
  })
})

describe('changing the operator password', () => {
  givenStartedTessera()

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
