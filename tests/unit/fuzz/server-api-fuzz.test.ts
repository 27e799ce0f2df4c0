import fc from 'fast-check'
import { beforeAll, describe } from 'vitest'
import { GET as getEvent } from '@/app/api/v1/events/[requestId]/route'
import { GET as searchEvents } from '@/app/api/v1/events/route'
import { POST as identify } from '@/app/api/v1/identify/route'
import { DELETE as deleteVisitor, GET as getVisitor } from '@/app/api/v1/visitors/[visitorId]/route'
import { createApiKey } from '@/server/api/create-api-key'
import { getDb } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { syntheticDevice } from '../../support/synthetic-devices'
import { bearerMostlyOf, edge, type FuzzEndpoint, itFuzzesEach, known, route } from './fuzz-harness'

let key = ''
let requestIds: string[] = []
let visitorIds: string[] = []
let cursors: string[] = []

const authorization = bearerMostlyOf(() => key)

const isoDate = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString())
// The years PostgreSQL refuses or ISO 8601 writes with six digits.
const edgeDate = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59+01:00',
  '+010000-01-01T00:00:00Z',
)
const cursor = fc.oneof(
  known(() => cursors),
  fc
    .tuple(
      fc.oneof(isoDate, edge.text),
      fc.oneof(
        known(() => requestIds),
        edge.text,
      ),
    )
    .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
  edge.text,
)

beforeAll(async () => {
  const db = await getDb()
  const site = await createSite({ db, name: 'Fuzzed', allowedOrigins: [] })
  key = (await createApiKey({ db, siteId: site.id, name: 'fuzz' })).key
  for (let seed = 0; seed < 6; seed++) {
    const response = await identify(
      new Request('http://127.0.0.1:3000/api/v1/identify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          components: syntheticDevice(seed % 3),
          siteKey: site.publicKey,
          linkedId: `a${seed}`,
        }),
      }),
    )
    const { requestId, visitorId } = await response.json()
    requestIds = [...requestIds, requestId]
    visitorIds = [...visitorIds, visitorId]
  }
  const page = await searchEvents(
    new Request('http://127.0.0.1:3000/api/v1/events?limit=1', {
      headers: { authorization: `Bearer ${key}` },
    }),
  )
  cursors = [(await page.json()).nextCursor]
})

const limit = fc.oneof(fc.integer({ min: -5, max: 150 }).map(String), edge.text)

const endpoints: FuzzEndpoint[] = [
  {
    method: 'GET',
    path: '/api/v1/events',
    handler: searchEvents,
    caseHeaders: authorization,
    query: fc.record(
      {
        visitorId: fc.oneof(
          known(() => visitorIds),
          edge.plausibleText,
        ),
        linkedId: edge.plausibleText,
        ip: fc.oneof(fc.ipV4(), fc.ipV6(), edge.text),
        bot: fc.constantFrom('notDetected', 'good', 'bad', 'maybe'),
        since: fc.oneof(isoDate, edgeDate, edge.text),
        until: fc.oneof(isoDate, edgeDate, edge.text),
        limit,
        cursor,
      },
      { requiredKeys: [] },
    ),
  },
  {
    method: 'GET',
    path: '/api/v1/events/{requestId}',
    handler: route(getEvent),
    caseHeaders: authorization,
    params: fc.record({
      requestId: fc.oneof(
        known(() => requestIds),
        edge.plausibleText,
      ),
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/visitors/{visitorId}',
    handler: route(getVisitor),
    caseHeaders: authorization,
    params: fc.record({
      visitorId: fc.oneof(
        known(() => visitorIds),
        edge.plausibleText,
      ),
    }),
    query: fc.record({ limit, before: cursor }, { requiredKeys: [] }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/visitors/{visitorId}',
    handler: route(deleteVisitor),
    caseHeaders: authorization,
    // Known visitors last: deleting them early would leave the reads above nothing to find.
    params: fc.record({
      visitorId: fc.oneof(
        edge.plausibleText,
        known(() => visitorIds),
      ),
    }),
  },
]

describe('fuzz: the Server API', () => {
  itFuzzesEach(endpoints)
})
