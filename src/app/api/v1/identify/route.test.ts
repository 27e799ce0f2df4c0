import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { getDb, queryRows } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { syntheticDevice } from '../../../../../tests/support/synthetic-devices'
import { GET as exportDevice } from '../device/export/route'
import { DELETE as forgetDevice, GET as readDevice } from '../device/route'
import { POST } from './route'

const url = 'http://127.0.0.1:3000/api/v1/identify'

function post(body: string, headers: Record<string, string> = {}) {
  return POST(
    new Request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.4', ...headers },
    }),
  )
}

async function eventCount() {
  const [row] = await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from events`)
  return row?.n ?? 0
}

beforeAll(async () => {
  await ensureDefaultSite({ db: await getDb(), origins: [] })
})

describe('POST /api/v1/identify', () => {
  it('answers the contract and sets the HttpOnly visitor cookie', async () => {
    const response = await post(
      JSON.stringify({ components: syntheticDevice(1), url: 'https://shop.example/' }),
    )
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(Object.keys(body).sort()).toEqual(
      [
        'confidence',
        'firstSeenAt',
        'lastSeenAt',
        'requestId',
        'signals',
        'storedToken',
        'suspectScore',
        'visitorFound',
        'visitorId',
      ].sort(),
    )
    expect(body.visitorFound).toBe(false)
    expect(response.headers.get('set-cookie')).toMatch(/^tessera_vid=v2\..+HttpOnly; SameSite=Lax$/)
    const [event] = await queryRows<{ ip: string; url: string }>(
      await getDb(),
      sql`select ip, url from events where request_id = ${body.requestId}`,
    )
    expect(event).toEqual({ ip: '198.51.100.4', url: 'https://shop.example/' })
  })

  const badInputs: [string, string, Record<string, string>, number, string][] = [
    ['malformed JSON', '{"components": ', {}, 400, 'invalid_json'],
    ['a wrong type', JSON.stringify({ components: 'all of them' }), {}, 400, 'invalid_request'],
    ['missing components', JSON.stringify({ url: 'https://x.example/' }), {}, 400, 'invalid_request'],
    ['no components at all', JSON.stringify({ components: {} }), {}, 400, 'invalid_request'],
    [
      'an unknown field',
      JSON.stringify({ components: syntheticDevice(2), admin: true }),
      {},
      400,
      'invalid_request',
    ],
    [
      'an oversized body',
      JSON.stringify({ components: { big: { value: 'x'.repeat(70_000), duration: 1 } } }),
      {},
      413,
      'payload_too_large',
    ],
    [
      'an unknown site key',
      JSON.stringify({ components: syntheticDevice(2), siteKey: 'pk_nope' }),
      {},
      400,
      'unknown_site',
    ],
    [
      'a NUL character, which the database cannot store',
      JSON.stringify({ components: syntheticDevice(2), linkedId: 'user\u000042' }),
      {},
      400,
      'invalid_request',
    ],
    ...(
      [
        [
          'components',
          { components: { ...syntheticDevice(2), fonts: { value: ['Arial\ud800'], duration: 1 } } },
        ],
        ['a component name', { components: { ...syntheticDevice(2), 'x\udc00': { value: 1, duration: 1 } } }],
        ['tag', { components: syntheticDevice(2), tag: { deep: [{ note: 'a\udbff b' }] } }],
        ['a tag key', { components: syntheticDevice(2), tag: { '\ud83d': true } }],
        ['linkedId', { components: syntheticDevice(2), linkedId: 'account-\ud800' }],
        ['url', { components: syntheticDevice(2), url: 'https://shop.example/\udfff' }],
      ] as const
    ).map(([where, body]): [string, string, Record<string, string>, number, string] => [
      // JSON.stringify writes a lone surrogate as its \u escape, as an attacker's client would.
      `a lone surrogate in ${where}, which jsonb cannot store`,
      JSON.stringify(body),
      {},
      400,
      'invalid_request',
    ]),
    [
      'JSON nested 5,000 deep',
      `{"components":{"a":{"value":${'['.repeat(5000)}${']'.repeat(5000)},"duration":1}}}`,
      {},
      400,
      'invalid_request',
    ],
    [
      'a tag nested 40 deep',
      JSON.stringify({
        components: syntheticDevice(2),
        tag: { t: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) },
      }),
      {},
      400,
      'invalid_request',
    ],
    [
      'a tag over 16 KB of JSON (within the body limit: stored with the event and its webhooks)',
      JSON.stringify({ components: syntheticDevice(2), tag: { note: 'é'.repeat(8200) } }),
      {},
      400,
      'invalid_request',
    ],
    [
      'no site key from an integrator’s page (through its server, a public path)',
      JSON.stringify({ components: syntheticDevice(3) }),
      { 'x-tessera-public-path': '1', 'sec-fetch-site': 'same-origin', origin: 'https://shop.example' },
      400,
      'invalid_request',
    ],
    [
      'a form body',
      'components=1',
      { 'content-type': 'application/x-www-form-urlencoded' },
      415,
      'unsupported_media_type',
    ],
  ]
  for (const [label, body, headers, status, code] of badInputs) {
    it(`refuses ${label} with ${status} and stores nothing`, async () => {
      const before = await eventCount()
      const response = await post(body, headers)
      expect(response.status).toBe(status)
      const answer = await response.json()
      expect(answer.error.code).toBe(code)
      expect(answer.error.message).toEqual(expect.any(String))
      expect(JSON.stringify(answer)).not.toMatch(/at .+\.(js|ts):\d+/)
      expect(await eventCount()).toBe(before)
    })
  }
})

describe('POST /api/v1/identify from a browser page (Origin)', () => {
  const body = (siteKey?: string) => JSON.stringify({ components: syntheticDevice(30), siteKey })

  it('refuses an origin that is neither Tessera nor allowed for the site, and stores nothing', async () => {
    const site = await createSite({
      db: await getDb(),
      name: 'Shop',
      allowedOrigins: ['https://shop.example'],
    })
    const refused: [string, Record<string, string>][] = [
      ['https://evil.example', {}],
      ['https://shop.example.evil.example', {}],
      ['http://shop.example', {}],
      ['null', {}],
      // A cross-site page's fetch, whatever it claims elsewhere.
      ['https://evil.example', { 'sec-fetch-site': 'cross-site' }],
    ]
    for (const [origin, extra] of refused) {
      for (const siteKey of [site.publicKey, undefined]) {
        const before = await eventCount()
        const response = await post(body(siteKey), { origin, ...extra })
        expect(response.status, `${origin} on ${siteKey ?? 'the default site'}`).toBe(403)
        expect((await response.json()).error.code).toBe('forbidden')
        expect(response.headers.get('access-control-allow-origin')).toBeNull()
        expect(await eventCount()).toBe(before)
      }
    }
  })

  it("accepts the site's allowed origins, Tessera's own origin, and calls without Origin", async () => {
    const site = await createSite({
      db: await getDb(),
      name: 'Shop',
      allowedOrigins: ['https://shop.example'],
    })
    const accepted: [string | undefined, Record<string, string>][] = [
      [site.publicKey, { origin: 'https://shop.example' }],
      [site.publicKey, { origin: 'http://127.0.0.1:3000' }],
      [undefined, { origin: 'http://127.0.0.1:3000' }],
      [undefined, { origin: 'https://tessera.example', 'sec-fetch-site': 'same-origin' }],
      [site.publicKey, {}],
      [undefined, {}],
    ]
    for (const [siteKey, headers] of accepted) {
      const response = await post(body(siteKey), headers)
      expect(response.status, JSON.stringify(headers)).toBe(200)
    }
  })
})

describe('POST /api/v1/identify with raw bytes', () => {
  it('refuses a body that is not UTF-8 (an encoded lone surrogate) with 400 and stores nothing', async () => {
    const before = await eventCount()
    const prefix = Buffer.from('{"components":{"a":{"value":"')
    const body = Buffer.concat([prefix, Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","duration":1}}}')])
    const response = await POST(
      new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('invalid_json')
    expect(await eventCount()).toBe(before)
  })

  it('still accepts a surrogate pair (an emoji) anywhere', async () => {
    const response = await post(
      JSON.stringify({ components: syntheticDevice(7), linkedId: 'me 😀', tag: { '😀': '😀' } }),
    )
    expect(response.status).toBe(200)
  })
})

describe('the device endpoints', () => {
  it('report, then forget, the calling browser', async () => {
    const identified = await post(JSON.stringify({ components: syntheticDevice(3) }))
    const { visitorId, storedToken } = await identified.json()
    const cookie = `tessera_vid=${storedToken}`
    const report = await readDevice(new Request('http://x/api/v1/device', { headers: { cookie } }))
    expect(report.status).toBe(200)
    const body = await report.json()
    expect(body.visitorId).toBe(visitorId)
    expect(body.history).toHaveLength(1)
    expect(body.uniqueness.length).toBeGreaterThan(10)

    const forgotten = await forgetDevice(
      new Request('http://x/api/v1/device', { method: 'DELETE', headers: { cookie } }),
    )
    expect(forgotten.status).toBe(200)
    expect(await forgotten.json()).toEqual({ deletedVisits: 1, visitorDeleted: true })
    expect(forgotten.headers.get('set-cookie')).toMatch(/tessera_vid=; Path=\/; Max-Age=0/)
    const [left] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select (select count(*) from events where visitor_id = ${visitorId})
               + (select count(*) from visitors where id = ${visitorId})
               + (select count(*) from visitor_keys where visitor_id = ${visitorId}) as n`,
    )
    expect(Number(left?.n)).toBe(0)
    const after = await readDevice(new Request('http://x/api/v1/device', { headers: { cookie } }))
    expect(after.status).toBe(404)

    // The next visit of the same device is a new visitor.
    const next = await (await post(JSON.stringify({ components: syntheticDevice(3) }))).json()
    expect(next.visitorFound).toBe(false)
    expect(next.visitorId).not.toBe(visitorId)
  })

  it("forgets nothing for a page of another origin, even with the browser's cookie", async () => {
    const { visitorId, storedToken } = await (
      await post(JSON.stringify({ components: syntheticDevice(501) }))
    ).json()
    const refused = await forgetDevice(
      new Request('http://127.0.0.1:3000/api/v1/device', {
        method: 'DELETE',
        headers: {
          cookie: `tessera_vid=${storedToken}`,
          origin: 'http://127.0.0.1:4000',
          'sec-fetch-site': 'same-site',
        },
      }),
    )
    expect(refused.status).toBe(403)
    const [left] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select count(*)::int as n from visitors where id = ${visitorId}`,
    )
    expect(left?.n).toBe(1)
  })

  it('does not accept a claimed visitor ID without a valid token', async () => {
    const response = await readDevice(
      new Request('http://x/api/v1/device', { headers: { cookie: 'tessera_vid=v1.someone-else.forged' } }),
    )
    expect(response.status).toBe(404)
  })

  it("never unlocks a browser's data for another browser that copied its fingerprint", async () => {
    const victim = await (
      await post(JSON.stringify({ components: syntheticDevice(4), linkedId: 'victim-42' }))
    ).json()
    const victimCookie = `tessera_vid=${victim.storedToken}`
    // The attacker posts the victim's components without any token, from elsewhere.
    const copied = await post(JSON.stringify({ components: syntheticDevice(4) }), {
      'x-forwarded-for': '203.0.113.66',
    })
    const attacker = await copied.json()
    expect(attacker.visitorId).toBe(victim.visitorId)
    expect(attacker.storedToken).not.toBe(victim.storedToken)
    const attackerCookie = `tessera_vid=${attacker.storedToken}`

    const exported = await exportDevice(
      new Request('http://x/api/v1/device/export', { headers: { cookie: attackerCookie } }),
    )
    const exportedText = await exported.text()
    expect(exportedText).not.toContain('victim-42')
    expect(exportedText).not.toContain('198.51.100.4')
    const report = await (
      await readDevice(new Request('http://x/api/v1/device', { headers: { cookie: attackerCookie } }))
    ).json()
    expect(report.history.map((visit: { requestId: string }) => visit.requestId)).toEqual([
      attacker.requestId,
    ])

    // What the attacker's browser is told is the truth: its own visit went, the visitor stays.
    const attackerForgot = await forgetDevice(
      new Request('http://x/api/v1/device', { method: 'DELETE', headers: { cookie: attackerCookie } }),
    )
    expect(await attackerForgot.json()).toEqual({ deletedVisits: 1, visitorDeleted: false })
    const [left] = await queryRows<{ events: number; visitors: number; visits: number }>(
      await getDb(),
      sql`select (select count(*)::int from events where visitor_id = ${victim.visitorId}) as events,
                 (select count(*)::int from visitors where id = ${victim.visitorId}) as visitors,
                 (select visits from visitors where id = ${victim.visitorId}) as visits`,
    )
    // The visit counter agrees with the history that is left.
    expect(left).toEqual({ events: 1, visitors: 1, visits: 1 })

    // The victim's own browser still reads and forgets its data.
    const own = await exportDevice(
      new Request('http://x/api/v1/device/export', { headers: { cookie: victimCookie } }),
    )
    expect(await own.text()).toContain('victim-42')
    await forgetDevice(
      new Request('http://x/api/v1/device', { method: 'DELETE', headers: { cookie: victimCookie } }),
    )
    const [gone] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select count(*)::int as n from visitors where id = ${victim.visitorId}`,
    )
    expect(gone?.n).toBe(0)
  })
})
