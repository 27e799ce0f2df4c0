import { beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '@/server/api/create-api-key'
import { getDb } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { findSite } from '@/server/sites/find-site'
import { syntheticDevice } from '../../../../tests/support/synthetic-devices'
import { GET as getEvent } from './events/[requestId]/route'
import { GET as searchEvents } from './events/route'
import { POST as identify } from './identify/route'
import { DELETE as deleteVisitor, GET as getVisitor } from './visitors/[visitorId]/route'

// Issue #15, item 10: parameters the database would refuse are the caller's mistake (4xx), never a 500.
const base = 'http://127.0.0.1:3000'
let key: string
let visitorId: string

const params = <T>(value: T) => ({ params: Promise.resolve(value) })
const authorised = (path: string, method = 'GET') =>
  new Request(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}` } })
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

beforeAll(async () => {
  const db = await getDb()
  const site = await createSite({ db, name: 'Hostile', allowedOrigins: [] })
  key = (await createApiKey({ db, siteId: site.id, name: 'back end' })).key
  const identified = await identify(
    new Request(`${base}/api/v1/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ components: syntheticDevice(1), siteKey: site.publicKey }),
    }),
  )
  visitorId = (await identified.json()).visitorId
})

async function expectRefused(response: Response, label: string) {
  expect(response.status, label).toBe(400)
  expect((await response.json()).error.code, label).toBe('invalid_request')
}

describe('Server API parameters the database cannot take', () => {
  it('refuses NUL in path parameters with 400', async () => {
    await expectRefused(
      await getEvent(authorised('/api/v1/events/a%00b'), params({ requestId: 'a\u0000b' })),
      'event',
    )
    await expectRefused(
      await getVisitor(authorised('/api/v1/visitors/a%00b'), params({ visitorId: 'a\u0000b' })),
      'visitor',
    )
    await expectRefused(
      await deleteVisitor(authorised('/api/v1/visitors/a%00b', 'DELETE'), params({ visitorId: 'a\u0000b' })),
      'delete',
    )
  })

  it('refuses NUL in query parameters with 400', async () => {
    for (const query of ['linkedId=a%00b', 'ip=%00', 'visitorId=x%00', 'cursor=%00']) {
      await expectRefused(await searchEvents(authorised(`/api/v1/events?${query}`)), query)
    }
  })

  it('refuses dates outside the years 0001-9999 in since and until with 400', async () => {
    for (const query of [
      'since=0000-01-01T00:00:00Z',
      'until=0000-12-31T23:59:59Z',
      'since=10000-01-01T00:00:00Z',
      'since=%2B010000-01-01T00:00:00Z',
    ]) {
      await expectRefused(await searchEvents(authorised(`/api/v1/events?${query}`)), query)
    }
    const latest = await searchEvents(authorised('/api/v1/events?until=9999-12-31T23:59:59Z'))
    expect(latest.status).toBe(200)
  })

  it('refuses cursors whose date or request ID the database would reject with 400', async () => {
    const forged = [
      ['0000-01-01T00:00:00Z', 'r'],
      ['+010000-01-01T00:00:00.000Z', 'r'],
      ['-000001-01-01T00:00:00Z', 'r'],
      ['2020-01-01T00:00:00Z', 'a\u0000b'],
      ['2020-01-01T00:00:00Z', 'x'.repeat(65)],
    ].map(cursorOf)
    for (const cursor of forged) {
      await expectRefused(await searchEvents(authorised(`/api/v1/events?cursor=${cursor}`)), cursor)
      await expectRefused(
        await getVisitor(authorised(`/api/v1/visitors/${visitorId}?before=${cursor}`), params({ visitorId })),
        cursor,
      )
    }
  })

  it('reads a cursor date in any form Date.parse knows as the instant it names', async () => {
    // V8 reads "1" as the year 2001; the cursor reaches SQL as a normalised ISO string.
    for (const date of ['1', 'March 7, 2020', '2020-01-01']) {
      const response = await searchEvents(authorised(`/api/v1/events?cursor=${cursorOf([date, 'r'])}`))
      expect(response.status, date).toBe(200)
    }
  })
})

describe('findSite (the /frame page and its proxy read site keys from the query)', () => {
  it('finds no site for a key with NUL, instead of a database error', async () => {
    expect(await findSite({ db: await getDb(), publicKey: 'a\u0000b' })).toBeUndefined()
  })
})
