import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '@/server/api/create-api-key'
import { getDb, queryRows } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { changeEventSignals } from '../../../tests/support/event-signals'
import {
  apiBase as base,
  identifyOn as identifyWith,
  params,
  type TwoSites,
  twoSitesWithKeys,
} from '../../../tests/support/server-api-fixtures'
import { GET as getEvent, PATCH as updateEvent } from './events/[event_id]/route'
import { GET as searchEvents } from './events/route'
import { DELETE as deleteVisitor } from './visitors/[visitor_id]/route'

let siteA: TwoSites['siteA']
let siteB: TwoSites['siteB']
let keyA: string
let keyB: string
let revokedKey: string

/** Every /v4 test's identifications come from one address unless it says otherwise. */
const identifyOn = (siteKey: string, seed: number, extra: Record<string, unknown> = {}, ip = '192.0.2.9') =>
  identifyWith(siteKey, seed, extra, ip)

function call(path: string, key: string | undefined, init: { method?: string; body?: string } = {}) {
  return new Request(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(key !== undefined && { authorization: `Bearer ${key}` }),
      ...(init.body !== undefined && { 'content-type': 'text/plain;charset=UTF-8' }),
    },
    body: init.body,
  })
}

const read = (eventId: string, key = keyA, query = '') =>
  getEvent(call(`/v4/events/${eventId}${query}`, key), params({ event_id: eventId }))
const patch = (eventId: string, body: unknown, key = keyA) =>
  updateEvent(
    call(`/v4/events/${eventId}`, key, {
      method: 'PATCH',
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    params({ event_id: eventId }),
  )
const search = async (query: string, key = keyA) => searchEvents(call(`/v4/events?${query}`, key))
const ids = async (response: Response) =>
  ((await response.json()) as { events: { event_id: string }[] }).events.map((event) => event.event_id)

/** A v4 error: the status and `{ error: { code, message } }`, nothing else. */
async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = await response.json()
  expect(body).toEqual({ error: { code, message: expect.any(String) } })
}

beforeAll(async () => {
  ;({ siteA, siteB, keyA, keyB, revokedKey } = await twoSitesWithKeys(await getDb()))
})

describe('/v4 authorisation', () => {
  it("answers v4's 403s without a valid key, and another site's data is not found", async () => {
    const event = await identifyOn(siteA.publicKey, 1)
    await expectError(await read(event.requestId, ''), 403, 'secret_api_key_required')
    await expectError(
      await getEvent(call(`/v4/events/${event.requestId}`, undefined), params({ event_id: event.requestId })),
      403,
      'secret_api_key_required',
    )
    for (const key of ['sk_notakey', `${keyA.slice(0, -4)}AAAA`, revokedKey]) {
      await expectError(await read(event.requestId, key), 403, 'secret_api_key_not_found')
      await expectError(await search('', key), 403, 'secret_api_key_not_found')
    }
    // Site B's key: A's event is not found (not "forbidden": a key learns nothing of other sites).
    await expectError(await read(event.requestId, keyB), 404, 'event_not_found')
    await expectError(await patch(event.requestId, { suspect: true }, keyB), 404, 'event_not_found')
    await expectError(
      await deleteVisitor(
        call(`/v4/visitors/${event.visitorId}`, keyB, { method: 'DELETE' }),
        params({ visitor_id: event.visitorId }),
      ),
      404,
      'visitor_not_found',
    )
    expect(await ids(await search(`visitor_id=${event.visitorId}`, keyB))).toEqual([])
    // Nothing of A's changed.
    const [row] = await queryRows<{ suspect: boolean | null; n: number }>(
      await getDb(),
      sql`select suspect, (select count(*)::int from events where visitor_id = ${event.visitorId}) as n
          from events where request_id = ${event.requestId}`,
    )
    expect(row).toEqual({ suspect: null, n: 1 })
    expect((await read(event.requestId)).status).toBe(200)
  })
})

describe('GET /v4/events/{event_id}', () => {
  it("answers the stored event in v4's shape, with the visitor's history on this site only", async () => {
    const elsewhere = await identifyOn(siteB.publicKey, 2)
    const first = await identifyOn(siteA.publicKey, 2, { linkedId: 'acct-1', tag: { plan: 'pro' } })
    const second = await identifyOn(siteA.publicKey, 2, { url: 'https://a.example/checkout' })
    expect(second.visitorId).toBe(elsewhere.visitorId)
    const response = await read(second.requestId, keyA, '?ii=fingerprint-pro-server-node-sdk%2F7.7.1')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const event = await response.json()
    const [times] = await queryRows<{
      first: Date | string
      second: Date | string
      elsewhere: Date | string
    }>(
      await getDb(),
      sql`select (select created_at from events where request_id = ${first.requestId}) as first,
                 (select created_at from events where request_id = ${second.requestId}) as second,
                 (select created_at from events where request_id = ${elsewhere.requestId}) as elsewhere`,
    )
    const ms = (value: Date | string | undefined) => new Date(value ?? 0).getTime()
    expect(event).toMatchObject({
      event_id: second.requestId,
      timestamp: ms(times?.second),
      url: 'https://a.example/checkout',
      ip_address: '192.0.2.9',
      identification: {
        visitor_id: second.visitorId,
        visitor_found: true,
        confidence: { score: expect.any(Number) },
        // Site B's earlier visit does not show on site A.
        first_seen_at: ms(times?.first),
        last_seen_at: ms(times?.first),
      },
      bot: 'not_detected',
      suspect_score: expect.any(Number),
      velocity: { events: { '5_minutes': expect.any(Number), '1_hour': expect.any(Number) } },
    })
    expect(ms(times?.elsewhere)).toBeLessThan(ms(times?.first))
    expect(event).not.toHaveProperty('linked_id')
    expect(event).not.toHaveProperty('suspect')
    const earlier = await (await read(first.requestId)).json()
    expect(earlier).toMatchObject({ linked_id: 'acct-1', tags: { plan: 'pro' } })
    expect(earlier.identification).not.toHaveProperty('last_seen_at')
  })

  it('refuses what Tessera does not have, in v4 error shape', async () => {
    const event = await identifyOn(siteA.publicKey, 3)
    await expectError(await read('nope'), 404, 'event_not_found')
    await expectError(await read(event.requestId, keyA, '?ruleset_id=rs_1'), 404, 'ruleset_not_found')
    await expectError(await read(event.requestId, keyA, '?colour=blue'), 400, 'request_cannot_be_parsed')
    await expectError(
      await getEvent(call('/v4/events/x', keyA), params({ event_id: 'x'.repeat(65) })),
      400,
      'request_cannot_be_parsed',
    )
    await expectError(
      await getEvent(call('/v4/events/a%00b', keyA), params({ event_id: 'a\u0000b' })),
      400,
      'request_cannot_be_parsed',
    )
  })
})

describe('PATCH /v4/events/{event_id}', () => {
  it('sets linked_id, replaces tags and flags the event as suspect', async () => {
    const event = await identifyOn(siteA.publicKey, 4, { linkedId: 'before', tag: { old: true } })
    const response = await patch(event.requestId, {
      linked_id: 'after',
      tags: { reviewed: 'yes' },
      suspect: true,
    })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
    const updated = await (await read(event.requestId)).json()
    expect(updated).toMatchObject({ linked_id: 'after', tags: { reviewed: 'yes' }, suspect: true })
    expect((await patch(event.requestId, { suspect: false })).status).toBe(200)
    expect(await (await read(event.requestId)).json()).toMatchObject({ linked_id: 'after', suspect: false })
  })

  it('refuses bad bodies with 4xx and changes nothing', async () => {
    const event = await identifyOn(siteA.publicKey, 5, { linkedId: 'kept' })
    const bad: unknown[] = [
      {},
      { linked_id: 42 },
      { tags: 'not an object' },
      // Within the body limit, over the tag's own 16 KB (two bytes a character in UTF-8).
      { tags: { note: 'é'.repeat(8200) } },
      { suspect: 'yes' },
      { linked_id: 'x'.repeat(257) },
      { colour: 'blue' },
      '{"linked_id": ',
      '[]',
      JSON.stringify({ linked_id: 'a\u0000b' }),
    ]
    for (const body of bad) {
      const response = await patch(event.requestId, body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect((await response.json()).error.code).toBe('request_cannot_be_parsed')
    }
    const form = await updateEvent(
      new Request(`${base}/v4/events/${event.requestId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'linked_id=x',
      }),
      params({ event_id: event.requestId }),
    )
    await expectError(form, 415, 'request_cannot_be_parsed')
    const big = await patch(event.requestId, { tags: { blob: 'x'.repeat(70_000) } })
    await expectError(big, 413, 'payload_too_large')
    await expectError(await patch('unknown-event', { suspect: true }), 404, 'event_not_found')
    const after = await (await read(event.requestId)).json()
    expect(after.linked_id).toBe('kept')
    expect(after).not.toHaveProperty('suspect')
  })
})

describe('GET /v4/events', () => {
  it("filters with v4's names and pages both ways without gaps or repeats", async () => {
    const site = await createSite({ db: await getDb(), name: 'Shop S', allowedOrigins: [] })
    const key = (await createApiKey({ db: await getDb(), siteId: site.id, name: 'search' })).key
    const made: { requestId: string; visitorId: string }[] = []
    for (let visit = 0; visit < 7; visit++) {
      made.push(
        await identifyOn(
          site.publicKey,
          10 + (visit % 3),
          { linkedId: `acct-${visit % 2}` },
          `10.0.${visit % 2}.${visit}`,
        ),
      )
    }
    const db = await getDb()
    const [flagged, , , , , , last] = made.map((event) => event.requestId)
    await changeEventSignals(db, flagged ?? '', (signals) => ({
      ...signals,
      bot: { result: 'bad', reasons: signals.bot?.reasons ?? [] },
    }))
    await changeEventSignals(db, last ?? '', (signals) => ({
      ...signals,
      tampering: { result: true, reasons: signals.tampering?.reasons ?? [] },
    }))
    await db.execute(sql`update events set suspect_score = 7 where request_id = ${last}`)
    expect((await patch(made[2]?.requestId ?? '', { suspect: true }, key)).status).toBe(200)

    // Newest first by default, 10 at most; the whole site's 7 events.
    const all = await ids(await search('', key))
    expect(all).toEqual(made.map((event) => event.requestId).reverse())
    expect(await ids(await search(`visitor_id=${made[0]?.visitorId}`, key))).toEqual(
      made
        .filter((event) => event.visitorId === made[0]?.visitorId)
        .map((e) => e.requestId)
        .reverse(),
    )
    expect(await ids(await search('linked_id=acct-1', key))).toEqual(
      [made[5], made[3], made[1]].map((e) => e?.requestId),
    )
    expect(await ids(await search('bot=bad', key))).toEqual([flagged])
    expect(await ids(await search('bot=all', key))).toEqual([flagged])
    expect(await ids(await search('bot=none', key))).toHaveLength(6)
    expect(await ids(await search('tampering=true', key))).toEqual([last])
    expect(await ids(await search('tampering=false', key))).toHaveLength(6)
    expect(await ids(await search('suspect=true', key))).toEqual([made[2]?.requestId])
    expect(await ids(await search('suspect=false', key))).toEqual([])
    expect(await ids(await search('ip_address=10.0.1.3', key))).toEqual([made[3]?.requestId])
    expect(await ids(await search('ip_address=10.0.1.0%2F24', key))).toEqual(
      [made[5], made[3], made[1]].map((e) => e?.requestId),
    )
    expect(await ids(await search('ip_address=10.0.0.0%2F16&reverse=true', key))).toEqual(
      made.map((event) => event.requestId),
    )
    expect(await ids(await search('min_suspect_score=7', key))).toEqual([last])
    expect(await ids(await search('start=2999-01-01T00:00:00Z', key))).toEqual([])
    expect(await ids(await search(`end=${Date.now() - 3_600_000}`, key))).toEqual([])
    expect(
      await ids(await search(`start=${Date.now() - 3_600_000}&end=2999-01-01T00:00:00Z`, key)),
    ).toHaveLength(7)

    for (const reverse of [false, true]) {
      const seen: string[] = []
      let key2: string | undefined
      do {
        const response = await search(
          `limit=3&reverse=${reverse}${key2 ? `&pagination_key=${key2}` : ''}`,
          key,
        )
        const page = (await response.json()) as { events: { event_id: string }[]; pagination_key?: string }
        expect(page.events.length).toBeLessThanOrEqual(3)
        seen.push(...page.events.map((event) => event.event_id))
        key2 = page.pagination_key
      } while (key2)
      const expected = made.map((event) => event.requestId)
      expect(seen).toEqual(reverse ? expected : [...expected].reverse())
    }
  })

  it('searches the last 7 days unless told otherwise', async () => {
    const site = await createSite({ db: await getDb(), name: 'Shop T', allowedOrigins: [] })
    const key = (await createApiKey({ db: await getDb(), siteId: site.id, name: 'search' })).key
    const old = await identifyOn(site.publicKey, 20)
    const fresh = await identifyOn(site.publicKey, 21)
    await (await getDb()).execute(
      sql`update events set created_at = now() - interval '8 days' where request_id = ${old.requestId}`,
    )
    expect(await ids(await search('', key))).toEqual([fresh.requestId])
    expect(await ids(await search('start=0', key))).toEqual([fresh.requestId, old.requestId])
  })

  it('refuses bad and unsupported filters with 400 in v4 error shape', async () => {
    const bad = [
      'limit=0',
      'limit=101',
      'limit=ten',
      'bot=maybe',
      'start=yesterday',
      'end=0000-01-01T00:00:00Z',
      'reverse=yes',
      'suspect=1',
      'ip_address=10.0.0.300',
      'ip_address=10.0.0.0%2F33',
      'ip_address=0x7f.1',
      'pagination_key=garbage',
      'emulator=true',
      'vpn=maybe',
      'vpn_confidence=certain',
      'asn=AS15169',
      'total_hits=100',
      'bot_info_category=ai_agent&bot_info_category=ai_crawler',
      'visitor_id=a&visitor_id=b',
      'colour=blue',
      'min_suspect_score=-1',
    ]
    for (const query of bad) {
      const response = await search(query)
      expect(response.status, query).toBe(400)
      expect(await response.json(), query).toEqual({
        error: { code: 'request_cannot_be_parsed', message: expect.any(String) },
      })
    }
    const emulator = await (await search('emulator=false')).json()
    expect(emulator.error.message).toMatch(/^emulator: Tessera does not compute this signal/)
  })
})

describe('DELETE /v4/visitors/{visitor_id}', () => {
  it("erases the site's data of the visitor, then answers 404", async () => {
    const event = await identifyOn(siteA.publicKey, 30)
    const remove = () =>
      deleteVisitor(
        call(`/v4/visitors/${event.visitorId}?ii=sdk`, keyA, { method: 'DELETE' }),
        params({ visitor_id: event.visitorId }),
      )
    const response = await remove()
    expect(response.status).toBe(200)
    await expectError(await read(event.requestId), 404, 'event_not_found')
    await expectError(await remove(), 404, 'visitor_not_found')
    const [left] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select (select count(*) from events where visitor_id = ${event.visitorId})::int
           + (select count(*) from visitors where id = ${event.visitorId})::int as n`,
    )
    expect(left?.n).toBe(0)
  })
})
