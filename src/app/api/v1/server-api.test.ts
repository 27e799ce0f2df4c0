import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '@/server/api/create-api-key'
import { getDb, queryRows } from '@/server/db/client'
import {
  apiBase as base,
  identifyOn,
  params,
  type TwoSites,
  twoSitesWithKeys,
} from '../../../../tests/support/server-api-fixtures'
import { GET as getEvent } from './events/[requestId]/route'
import { GET as searchEvents } from './events/route'
import { GET as openApi } from './openapi.json/route'
import { DELETE as deleteVisitor, GET as getVisitor } from './visitors/[visitorId]/route'

let siteA: TwoSites['siteA']
let siteB: TwoSites['siteB']
let keyA: string
let keyB: string
let revokedKey: string

function authorised(path: string, key?: string, method = 'GET') {
  return new Request(`${base}${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} })
}

beforeAll(async () => {
  ;({ siteA, siteB, keyA, keyB, revokedKey } = await twoSitesWithKeys(await getDb()))
})

describe('Server API authorisation', () => {
  it('answers 401 without a valid key and 403 for another site, on every route', async () => {
    const event = await identifyOn(siteA.publicKey, 1)
    const calls: [string, (key?: string) => Promise<Response>][] = [
      [
        'GET /events/{id}',
        (key) =>
          getEvent(
            authorised(`/api/v1/events/${event.requestId}`, key),
            params({ requestId: event.requestId }),
          ),
      ],
      [
        'GET /visitors/{id}',
        (key) =>
          getVisitor(
            authorised(`/api/v1/visitors/${event.visitorId}`, key),
            params({ visitorId: event.visitorId }),
          ),
      ],
      [
        'DELETE /visitors/{id}',
        (key) =>
          deleteVisitor(
            authorised(`/api/v1/visitors/${event.visitorId}`, key, 'DELETE'),
            params({ visitorId: event.visitorId }),
          ),
      ],
      ['GET /events', (key) => searchEvents(authorised('/api/v1/events', key))],
    ]
    for (const [label, call] of calls) {
      for (const key of [undefined, 'sk_notakey', `${keyA.slice(0, -4)}AAAA`, revokedKey]) {
        const response = await call(key)
        expect(response.status, `${label} with ${key}`).toBe(401)
        expect((await response.json()).error.code).toBe('unauthorized')
        expect(response.headers.get('www-authenticate')).toBe('Bearer')
      }
      if (label.startsWith('GET /events/') || label.startsWith('GET /visitors/')) {
        const response = await call(keyB)
        expect(response.status, `${label} with another site's key`).toBe(403)
        expect((await response.json()).error.code).toBe('forbidden')
      }
      // Deleting with another site's key deletes nothing and, idempotent, says nothing either.
      if (label.startsWith('DELETE')) expect((await call(keyB)).status).toBe(204)
    }
    // Search with another site's key simply finds nothing of site A.
    const other = await (
      await searchEvents(authorised(`/api/v1/events?visitorId=${event.visitorId}`, keyB))
    ).json()
    expect(other.events).toEqual([])
    const still = await getEvent(
      authorised(`/api/v1/events/${event.requestId}`, keyA),
      params({ requestId: event.requestId }),
    )
    expect(still.status).toBe(200)
  })
})

describe('One device seen on two sites', () => {
  it("lets each site's key read and delete only its own site's events", async () => {
    const onA = await identifyOn(siteA.publicKey, 40, { linkedId: 'a-account' })
    const onB = await identifyOn(siteB.publicKey, 40, { linkedId: 'b-account' })
    expect(onB.visitorId).toBe(onA.visitorId)
    const visitorId = onA.visitorId
    const path = `/api/v1/visitors/${visitorId}`

    // Reads: B sees its own event only, and not A's dates.
    expect(
      (
        await getEvent(
          authorised(`/api/v1/events/${onA.requestId}`, keyB),
          params({ requestId: onA.requestId }),
        )
      ).status,
    ).toBe(403)
    const history = await (await getVisitor(authorised(path, keyB), params({ visitorId }))).json()
    expect(history.events.map((event: { requestId: string }) => event.requestId)).toEqual([onB.requestId])
    expect(history.firstSeenAt).toBe(history.events[0].createdAt)
    const search = await (
      await searchEvents(authorised(`/api/v1/events?visitorId=${visitorId}`, keyB))
    ).json()
    expect(search.events.map((event: { requestId: string }) => event.requestId)).toEqual([onB.requestId])

    // B deletes: B's event goes, A's event and the visitor stay.
    expect((await deleteVisitor(authorised(path, keyB, 'DELETE'), params({ visitorId }))).status).toBe(204)
    const db = await getDb()
    const left = await queryRows<{ request_id: string }>(
      db,
      sql`select request_id from events where visitor_id = ${visitorId}`,
    )
    expect(left.map((row) => row.request_id)).toEqual([onA.requestId])
    const [visitor] = await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from visitors where id = ${visitorId})::int
           + (select count(*) from visitor_keys where visitor_id = ${visitorId})::int as n`,
    )
    expect(visitor?.n).toBeGreaterThan(1)
    const fromA = await getVisitor(authorised(path, keyA), params({ visitorId }))
    expect(fromA.status).toBe(200)
    expect((await fromA.json()).events).toHaveLength(1)
    // Again with B's key: nothing left to delete, still 204, A's event untouched.
    expect((await deleteVisitor(authorised(path, keyB, 'DELETE'), params({ visitorId }))).status).toBe(204)
    expect((await getVisitor(authorised(path, keyA), params({ visitorId }))).status).toBe(200)

    // A deletes the last site's events: now the visitor itself goes.
    expect((await deleteVisitor(authorised(path, keyA, 'DELETE'), params({ visitorId }))).status).toBe(204)
    const [gone] = await queryRows<{ n: number }>(
      db,
      sql`select (select count(*) from visitors where id = ${visitorId})::int
           + (select count(*) from visitor_keys where visitor_id = ${visitorId})::int
           + (select count(*) from events where visitor_id = ${visitorId})::int as n`,
    )
    expect(gone?.n).toBe(0)
  })
})

describe('GET /api/v1/events/{requestId}', () => {
  it('returns the stored event with its IP, URL, tag and linkedId', async () => {
    const event = await identifyOn(siteA.publicKey, 2, {
      url: 'https://a.example/signup',
      tag: { plan: 'pro' },
      linkedId: 'acct-9',
    })
    const response = await getEvent(
      authorised(`/api/v1/events/${event.requestId}`, keyA),
      params({ requestId: event.requestId }),
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      requestId: event.requestId,
      visitorId: event.visitorId,
      ip: '192.0.2.2',
      url: 'https://a.example/signup',
      tag: { plan: 'pro' },
      linkedId: 'acct-9',
      siteKey: siteA.publicKey,
      confidence: { score: expect.any(Number) },
      signals: expect.any(Object),
    })
  })

  it('answers 404 for an unknown request ID', async () => {
    const response = await getEvent(authorised('/api/v1/events/nope', keyA), params({ requestId: 'nope' }))
    expect(response.status).toBe(404)
  })

  it('records when a key was last used, for the console', async () => {
    const db = await getDb()
    const { id, key } = await createApiKey({ db, siteId: siteB.id, name: 'reporting' })
    const lastUsed = async () =>
      (
        await queryRows<{ at: string | null }>(
          db,
          sql`select last_used_at as at from api_keys where id = ${id}`,
        )
      )[0]?.at
    expect(await lastUsed()).toBeNull()
    await getEvent(authorised('/api/v1/events/nope', key), params({ requestId: 'nope' }))
    const first = await lastUsed()
    expect(first).toEqual(expect.any(String))
    // Within the minute, a second call writes nothing.
    await getEvent(authorised('/api/v1/events/nope', key), params({ requestId: 'nope' }))
    expect(await lastUsed()).toBe(first)
  })
})

describe('GET /api/v1/visitors/{visitorId}', () => {
  it('pages through the history newest first without gaps or repeats', async () => {
    const first = await identifyOn(siteA.publicKey, 3)
    for (let visit = 0; visit < 6; visit++) await identifyOn(siteA.publicKey, 3)
    const seen: string[] = []
    let before: string | null = null
    do {
      const path: string = `/api/v1/visitors/${first.visitorId}?limit=3${before ? `&before=${before}` : ''}`
      const page = await (
        await getVisitor(authorised(path, keyA), params({ visitorId: first.visitorId }))
      ).json()
      expect(page.events.length).toBeLessThanOrEqual(3)
      seen.push(...page.events.map((event: { requestId: string }) => event.requestId))
      before = page.nextCursor
    } while (before)
    expect(seen).toHaveLength(7)
    expect(new Set(seen).size).toBe(7)
    expect(seen[6]).toBe(first.requestId)
  })

  it('refuses a bad limit or cursor with 400', async () => {
    const event = await identifyOn(siteA.publicKey, 4)
    for (const query of ['limit=0', 'limit=1000', 'limit=abc', 'before=garbage']) {
      const response = await getVisitor(
        authorised(`/api/v1/visitors/${event.visitorId}?${query}`, keyA),
        params({ visitorId: event.visitorId }),
      )
      expect(response.status, query).toBe(400)
      expect((await response.json()).error.code).toBe('invalid_request')
    }
  })
})

describe('DELETE /api/v1/visitors/{visitorId}', () => {
  it('deletes every trace, is idempotent, and the device is new on its next visit', async () => {
    const event = await identifyOn(siteA.publicKey, 5)
    const path = `/api/v1/visitors/${event.visitorId}`
    expect(
      (await deleteVisitor(authorised(path, keyA, 'DELETE'), params({ visitorId: event.visitorId }))).status,
    ).toBe(204)
    expect(
      (await deleteVisitor(authorised(path, keyA, 'DELETE'), params({ visitorId: event.visitorId }))).status,
    ).toBe(204)
    expect((await getVisitor(authorised(path, keyA), params({ visitorId: event.visitorId }))).status).toBe(
      404,
    )
    expect(
      (
        await getEvent(
          authorised(`/api/v1/events/${event.requestId}`, keyA),
          params({ requestId: event.requestId }),
        )
      ).status,
    ).toBe(404)
    const [left] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select (select count(*) from events where visitor_id = ${event.visitorId}) + (select count(*) from visitor_keys where visitor_id = ${event.visitorId}) as n`,
    )
    expect(Number(left?.n)).toBe(0)
    const again = await identifyOn(siteA.publicKey, 5)
    expect(again.visitorId).not.toBe(event.visitorId)
  })
})

describe('GET /api/v1/events', () => {
  it('filters by linkedId, IP and time, and rejects unknown parameters', async () => {
    const event = await identifyOn(siteA.publicKey, 6, { linkedId: 'acct-search' })
    const byLinked = await (
      await searchEvents(authorised('/api/v1/events?linkedId=acct-search', keyA))
    ).json()
    expect(byLinked.events.map((e: { requestId: string }) => e.requestId)).toEqual([event.requestId])
    const byIp = await (await searchEvents(authorised('/api/v1/events?ip=192.0.2.6', keyA))).json()
    expect(byIp.events.length).toBeGreaterThan(0)
    expect(byIp.events.every((e: { ip: string }) => e.ip === '192.0.2.6')).toBe(true)
    // A range finds the events of its addresses (a /32 is the address itself); what is no address is refused.
    const ids = (page: { events: { requestId: string }[] }) => page.events.map((e) => e.requestId)
    const exact = await (await searchEvents(authorised('/api/v1/events?ip=192.0.2.6/32', keyA))).json()
    expect(ids(exact)).toEqual(ids(byIp))
    const network = await (await searchEvents(authorised('/api/v1/events?ip=192.0.2.0/24', keyA))).json()
    expect(ids(network)).toEqual(expect.arrayContaining(ids(byIp)))
    expect(network.events.every((e: { ip: string }) => e.ip.startsWith('192.0.2.'))).toBe(true)
    // A zone id or a prefix with a leading zero would reach the database as a range it cannot read.
    for (const ip of [
      'notanip',
      '999.1.1.1',
      '192.0.2.0/33',
      '192.0.2.6/24/1',
      '2001:db8::/064',
      'fe80::1%eth0/64',
    ]) {
      const refused = await searchEvents(authorised(`/api/v1/events?ip=${encodeURIComponent(ip)}`, keyA))
      expect(refused.status, ip).toBe(400)
      expect((await refused.json()).error.message, ip).toContain('CIDR range')
    }
    const future = await (
      await searchEvents(authorised('/api/v1/events?since=2999-01-01T00:00:00Z', keyA))
    ).json()
    expect(future.events).toEqual([])
    for (const query of ['bot=maybe', 'since=yesterday', 'colour=blue']) {
      const response = await searchEvents(authorised(`/api/v1/events?${query}`, keyA))
      expect(response.status, query).toBe(400)
    }
  })
})

describe('GET /api/v1/openapi.json', () => {
  it('documents every Server API route with its answers', async () => {
    const document = await (await openApi(new Request(`${base}/api/v1/openapi.json`))).json()
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/api/v1/events',
        '/api/v1/events/{requestId}',
        '/api/v1/identify',
        '/api/v1/nonce',
        '/api/v1/visitors/{visitorId}',
        '/v4/events',
        '/v4/events/{event_id}',
        '/v4/visitors/{visitor_id}',
      ].sort(),
    )
    expect(Object.keys(document.paths['/api/v1/visitors/{visitorId}']).sort()).toEqual(['delete', 'get'])
    expect(document.components.schemas.Event.required).toContain('requestId')
    expect(Object.keys(document.paths['/v4/events/{event_id}']).sort()).toEqual(['get', 'patch'])
    expect(document.components.schemas.FingerprintEvent.required).toEqual(
      expect.arrayContaining(['event_id', 'timestamp', 'identification']),
    )
    const search = document.paths['/v4/events'].get.parameters.map(
      (parameter: { name: string }) => parameter.name,
    )
    expect(search).toEqual(
      expect.arrayContaining(['visitor_id', 'linked_id', 'bot', 'ip_address', 'suspect']),
    )
    expect(search).toEqual(expect.arrayContaining(['start', 'end', 'limit', 'pagination_key', 'reverse']))
  })
})
