import fc from 'fast-check'
import { beforeAll, describe } from 'vitest'
import { POST as identify } from '@/app/api/v1/identify/route'
import { GET as getEvent, PATCH as updateEvent } from '@/app/v4/events/[event_id]/route'
import { GET as searchEvents } from '@/app/v4/events/route'
import { DELETE as deleteVisitor } from '@/app/v4/visitors/[visitor_id]/route'
import { createApiKey } from '@/server/api/create-api-key'
import { getDb } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { syntheticDevice } from '../../support/synthetic-devices'
import { bearerMostlyOf, edge, type FuzzEndpoint, itFuzzesEach, known, route } from './fuzz-harness'

let key = ''
let eventIds: string[] = []
let visitorIds: string[] = []
let paginationKeys: string[] = []

const authorization = bearerMostlyOf(() => key)

const instant = fc.oneof(
  fc
    .date({
      min: new Date('0000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  fc.integer({ min: -1, max: 300_000_000_000_000 }).map(String),
  edge.text,
)
const flag = fc.constantFrom('true', 'false', '1', 'TRUE', '')

beforeAll(async () => {
  const db = await getDb()
  const site = await createSite({ db, name: 'Fuzzed v4', allowedOrigins: [] })
  key = (await createApiKey({ db, siteId: site.id, name: 'fuzz' })).key
  for (let seed = 0; seed < 6; seed++) {
    const response = await identify(
      new Request('http://127.0.0.1:3000/api/v1/identify', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${seed}` },
        body: JSON.stringify({
          components: syntheticDevice(seed % 3),
          siteKey: site.publicKey,
          linkedId: `a${seed}`,
        }),
      }),
    )
    const { requestId, visitorId } = await response.json()
    eventIds = [...eventIds, requestId]
    visitorIds = [...visitorIds, visitorId]
  }
  const page = await searchEvents(
    new Request('http://127.0.0.1:3000/v4/events?limit=1', { headers: { authorization: `Bearer ${key}` } }),
  )
  paginationKeys = [(await page.json()).pagination_key]
})

const endpoints: FuzzEndpoint[] = [
  {
    method: 'GET',
    path: '/v4/events',
    handler: searchEvents,
    caseHeaders: authorization,
    query: fc.record(
      {
        visitor_id: fc.oneof(
          known(() => visitorIds),
          edge.plausibleText,
        ),
        linked_id: edge.plausibleText,
        ip_address: fc.oneof(
          fc.ipV4(),
          fc.ipV6(),
          fc.tuple(fc.ipV4(), fc.integer({ min: -1, max: 140 })).map(([ip, bits]) => `${ip}/${bits}`),
          fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 140 })).map(([ip, bits]) => `${ip}/${bits}`),
          edge.text,
        ),
        bot: fc.constantFrom('all', 'good', 'bad', 'none', 'maybe'),
        start: instant,
        end: instant,
        limit: fc.oneof(fc.integer({ min: -5, max: 150 }).map(String), edge.text),
        pagination_key: fc.oneof(
          known(() => paginationKeys),
          edge.text,
        ),
        reverse: flag,
        suspect: flag,
        tampering: flag,
        incognito: flag,
        virtual_machine: flag,
        privacy_settings: flag,
        min_suspect_score: fc.oneof(fc.double().map(String), edge.text),
        url: edge.plausibleText,
        vpn: flag,
        ii: edge.plausibleText,
      },
      { requiredKeys: [] },
    ),
  },
  {
    method: 'GET',
    path: '/v4/events/{event_id}',
    handler: route(getEvent),
    caseHeaders: authorization,
    params: fc.record({
      event_id: fc.oneof(
        known(() => eventIds),
        edge.plausibleText,
      ),
    }),
    query: fc.record({ ii: edge.plausibleText, ruleset_id: edge.plausibleText }, { requiredKeys: [] }),
  },
  {
    method: 'PATCH',
    path: '/v4/events/{event_id}',
    handler: route(updateEvent),
    caseHeaders: authorization,
    params: fc.record({
      event_id: fc.oneof(
        known(() => eventIds),
        edge.plausibleText,
      ),
    }),
    body: fc.record(
      {
        linked_id: edge.plausibleText,
        tags: fc.dictionary(fc.string({ maxLength: 10 }), edge.value, { maxKeys: 3 }),
        suspect: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  },
  {
    method: 'DELETE',
    path: '/v4/visitors/{visitor_id}',
    handler: route(deleteVisitor),
    caseHeaders: authorization,
    // Known visitors last: deleting them early would leave the reads above nothing to find.
    params: fc.record({
      visitor_id: fc.oneof(
        edge.plausibleText,
        known(() => visitorIds),
      ),
    }),
  },
]

describe('fuzz: the Fingerprint Server API v4 face', () => {
  itFuzzesEach(endpoints)
})
