import { afterAll, beforeEach, expect, it } from 'vitest'
import { DeviceExport } from '@/contracts/device'
import { getDb } from '@/server/db/client'
import { currentBrowser } from '@/server/identification/current-visitor'
import { exportVisitorData } from '@/server/identification/export-visitor-data'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../../../tests/support/process-database'
import { syntheticDevice } from '../../../../../../tests/support/synthetic-devices'
import { POST as identify } from '../../identify/route'
import { GET as readDevice } from '../route'
import { GET as exportDevice } from './route'

const base = 'http://127.0.0.1:3000'

beforeEach(async () => {
  await ensureDefaultSite({ db: await freshProcessDatabase(), origins: [] })
})

afterAll(closeProcessDatabase)

async function identifyWith(headers: Record<string, string>) {
  const response = await identify(
    new Request(`${base}/api/v1/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.4', ...headers },
      body: JSON.stringify({ components: syntheticDevice(7301), linkedId: 'account-7301' }),
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as { storedToken: string }
}

it('answers "Export my data" exactly as its contract describes it', async () => {
  const { storedToken } = await identifyWith({})
  const cookie = `tessera_vid=${storedToken}`
  // A second visit by the same browser: one event new, one matched by its token.
  await identifyWith({ cookie })

  const response = await exportDevice(new Request(`${base}/api/v1/device/export`, { headers: { cookie } }))
  expect(response.status).toBe(200)
  const exported = await response.json()
  // Parsing drops no extra field (zod strips unknown keys, so an extra one makes the two differ).
  expect(DeviceExport.parse(exported)).toEqual(exported)
  expect(exported.events.map((event: { method: string }) => event.method)).toEqual(['token', 'new'])
  expect(exported.visitor.fingerprintDigests).not.toBeNull()
})

it('streams a long history a page at a time, newest first, as one document', async () => {
  const { storedToken } = await identifyWith({})
  const cookie = `tessera_vid=${storedToken}`
  for (let visit = 0; visit < 6; visit++) await identifyWith({ cookie })
  const browser = await currentBrowser(await getDb(), new Request(base, { headers: { cookie } }))
  if (!browser) throw new Error('the token names no browser')

  const whole = JSON.parse(
    await new Response(await exportVisitorData({ db: await getDb(), ...browser })).text(),
  )
  // Pages of two: three full pages and a last one of one, each read after the one before.
  const paged = await new Response(
    await exportVisitorData({ db: await getDb(), ...browser, pageSize: 2 }),
  ).text()
  const parsed = JSON.parse(paged)
  expect(DeviceExport.parse(parsed)).toEqual(parsed)
  expect(parsed.events).toHaveLength(7)
  expect(parsed.events).toEqual(whole.events)
  const times = parsed.events.map((event: { createdAt: string }) => Date.parse(event.createdAt))
  expect(times).toEqual([...times].sort((a, b) => b - a))
  expect(new Set(parsed.events.map((event: { requestId: string }) => event.requestId)).size).toBe(7)
  // A page that ends exactly at the last event closes the document too.
  const even = JSON.parse(
    await new Response(await exportVisitorData({ db: await getDb(), ...browser, pageSize: 7 })).text(),
  )
  expect(even.events).toEqual(whole.events)
})

it('limits how often one browser exports, with a 429 that says when to try again', async () => {
  const { storedToken } = await identifyWith({})
  const cookie = `tessera_vid=${storedToken}`
  const exportOnce = () =>
    exportDevice(
      new Request(`${base}/api/v1/device/export`, {
        headers: { cookie, 'x-forwarded-for': '198.51.100.77' },
      }),
    )
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await exportOnce()
    expect(response.status).toBe(200)
    await response.text()
  }
  const refused = await exportOnce()
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  expect((await refused.json()).error.code).toBe('rate_limited')
})

it('never lets one browser refused its own exports spend the others’ on its address', async () => {
  const address = '198.51.100.78'
  const exportAs = (cookie: string) =>
    exportDevice(
      new Request(`${base}/api/v1/device/export`, { headers: { cookie, 'x-forwarded-for': address } }),
    )
  const greedy = `tessera_vid=${(await identifyWith({})).storedToken}`
  for (let attempt = 0; attempt < 3; attempt++) await (await exportAs(greedy)).text()
  // Refused again and again, past the address's 10: refusals spend nothing.
  for (let attempt = 0; attempt < 10; attempt++) expect((await exportAs(greedy)).status).toBe(429)
  const neighbour = `tessera_vid=${(await identifyWith({})).storedToken}`
  expect((await exportAs(neighbour)).status).toBe(200)
})

it('refuses a page of another site, or of another port, before it spends the visitor’s exports', async () => {
  const cookie = `tessera_vid=${(await identifyWith({})).storedToken}`
  const exportFrom = (fetchSite?: string) =>
    exportDevice(
      new Request(`${base}/api/v1/device/export`, {
        headers: {
          cookie,
          'x-forwarded-for': '198.51.100.79',
          ...(fetchSite && { 'sec-fetch-site': fetchSite }),
        },
      }),
    )
  // A page elsewhere navigating the visitor's browser here, again and again: its cookie goes along.
  for (const fetchSite of ['cross-site', 'same-site', 'cross-site', 'same-site']) {
    const refused = await exportFrom(fetchSite)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      error: {
        code: 'cross_origin',
        message:
          'Export your data from Tessera’s own page (/device-fingerprint), not from a link on another site.',
      },
    })
  }
  // The visitor's own three are all still there: the page's link, a bookmark, and curl.
  for (const fetchSite of ['same-origin', 'none', undefined]) {
    const response = await exportFrom(fetchSite)
    expect(response.status).toBe(200)
    await response.text()
  }
  expect((await exportFrom('same-origin')).status).toBe(429)
})

it("shows the browser its report only when Tessera's own page asks", async () => {
  const cookie = `tessera_vid=${(await identifyWith({})).storedToken}`
  const read = (fetchSite?: string) =>
    readDevice(
      new Request(`${base}/api/v1/device`, {
        headers: { cookie, ...(fetchSite && { 'sec-fetch-site': fetchSite }) },
      }),
    )
  for (const fetchSite of ['cross-site', 'same-site']) expect((await read(fetchSite)).status).toBe(403)
  for (const fetchSite of ['same-origin', 'none', undefined]) expect((await read(fetchSite)).status).toBe(200)
})
