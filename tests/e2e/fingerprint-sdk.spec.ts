import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import {
  DecryptionAlgorithm,
  type Event,
  FingerprintServerApiClient,
  isValidWebhookSignature,
  ServerApiError,
  unsealEventsResponse,
} from '@fingerprint/node-sdk'
import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test'
import { browserHeaders } from '../support/browser-headers'
import { ADMIN_PASSWORD, EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { signIn } from '../support/helpers'
import { syntheticDevice } from '../support/synthetic-devices'
import { type RunningServer, removeServerFiles, startTesseraServer } from '../support/tessera-server'

/**
 * Fingerprint's official Node SDK (@fingerprint/node-sdk 7, Server API v4) against a running
 * Tessera: the client is Fingerprint's own, only its fetch sends the requests to Tessera. Its own
 * server, with loopback webhooks allowed (the receiver is this process) and an encryption key for
 * the sealing keys at rest.
 */
test.describe.configure({ mode: 'serial' })

let server: RunningServer
let receiver: { url: string; received: { body: Buffer; signature: string }[]; close(): void }
let tessera: APIRequestContext
let site: { id: string; publicKey: string }
let apiKey: string
let sealingKey: string
let webhookSecret: string
const identified: { requestId: string; visitorId: string; sealed_result?: string }[] = []
/** A Tor exit list fixture, in the Tor Project's bulk form. */
const torExitList = path.resolve('tests/fixtures/tor-exit-list.txt')

/** The README's set-up: Fingerprint's client, its requests sent to Tessera's base URL. */
function fingerprintClient(key: string) {
  const toTessera: typeof fetch = (url, init) =>
    fetch(String(url).replace(/^https:\/\/[^/]+/, server.url), init)
  return new FingerprintServerApiClient({ apiKey: key, fetch: toTessera })
}

function startReceiver(): Promise<typeof receiver> {
  const received: { body: Buffer; signature: string }[] = []
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        body: Buffer.concat(chunks),
        signature: String(request.headers['fpjs-event-signature']),
      })
      response.writeHead(200).end()
    })
  })
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () => {
      const address = http.address()
      const port = typeof address === 'object' && address ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}/fingerprint-hook`, received, close: () => http.close() })
    }),
  )
}

async function created<T>(response: Promise<import('@playwright/test').APIResponse>): Promise<T> {
  const answer = await response
  expect(answer.status(), await answer.text()).toBe(201)
  return (await answer.json()) as T
}

async function identify(
  seed: number,
  extra: Record<string, unknown> = {},
  network: { forwardedFor?: string; timezone?: string } = {},
) {
  const components = syntheticDevice(seed)
  if (network.timezone) components.timezone = { value: network.timezone, duration: 1 }
  // Through the first-party path (TESSERA_API_PREFIX), as a site's own proxy sends it.
  const answer = await tessera.post(network.forwardedFor ? '/metrics/r/identify' : '/api/v1/identify', {
    headers: {
      'content-type': 'application/json',
      ...browserHeaders(components),
      ...(network.forwardedFor && { 'x-forwarded-for': network.forwardedFor }),
    },
    data: JSON.stringify({ components, siteKey: site.publicKey, ...extra }),
  })
  expect(answer.status()).toBe(200)
  const result = (await answer.json()) as (typeof identified)[number]
  identified.push(result)
  return result
}

/** The SDK's typed error for a v4 error answer. */
async function serverApiError(call: Promise<unknown>): Promise<ServerApiError> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(ServerApiError)
  return error as ServerApiError
}

test.beforeAll(async () => {
  receiver = await startReceiver()
  server = await startTesseraServer({
    port: EXTRA_SERVER_PORTS.fingerprint,
    env: {
      TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TESSERA_WEBHOOK_ALLOW_PRIVATE: '1',
      TESSERA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // One proxy in front (the test itself, as a site's first-party proxy): its X-Forwarded-For counts.
      TESSERA_TRUSTED_PROXIES: '1',
      TESSERA_API_PREFIX: '/metrics/r',
      TESSERA_TOR_EXIT_LIST: torExitList,
    },
  })
  tessera = await playwrightRequest.newContext({ baseURL: server.url })
  await signIn(tessera)
  site = await created(tessera.post('/api/console/sites', { data: { name: 'SDK shop', allowedOrigins: [] } }))
  apiKey = (
    await created<{ key: string }>(
      tessera.post('/api/console/keys', { data: { siteId: site.id, name: 'sdk' } }),
    )
  ).key
  sealingKey = (
    await created<{ key: string }>(tessera.post('/api/console/sealing-keys', { data: { siteId: site.id } }))
  ).key
  webhookSecret = (
    await created<{ secret: string }>(
      tessera.post('/api/console/webhooks', {
        data: { siteId: site.id, url: receiver.url, format: 'fingerprint-v4' },
      }),
    )
  ).secret
  await identify(501, { linkedId: 'account-1', tag: { plan: 'pro' }, url: 'https://sdk.example/signup' })
  await identify(501, { linkedId: 'account-1' })
  await identify(502, { linkedId: 'account-2' })
  await identify(503)
})

test.afterAll(async () => {
  await tessera?.dispose()
  await server?.stop()
  receiver?.close()
  if (server) removeServerFiles(server)
})

test('getEvent answers the stored event, parsed by the SDK', async () => {
  const client = fingerprintClient(apiKey)
  const [first, second] = identified
  const event = await client.getEvent(first?.requestId ?? '')
  expect(event).toMatchObject({
    event_id: first?.requestId,
    linked_id: 'account-1',
    tags: { plan: 'pro' },
    url: 'https://sdk.example/signup',
    ip_address: '127.0.0.1',
    bot: 'not_detected',
    identification: {
      visitor_id: first?.visitorId,
      visitor_found: false,
      confidence: { score: expect.any(Number) },
    },
  })
  const again = await client.getEvent(second?.requestId ?? '')
  expect(again.identification).toMatchObject({
    visitor_id: first?.visitorId,
    visitor_found: true,
    first_seen_at: event.timestamp,
    last_seen_at: event.timestamp,
  })
})

test('searchEvents filters with v4 names and pages with pagination_key', async () => {
  const client = fingerprintClient(apiKey)
  const all = identified.map((event) => event.requestId)
  const everything = await client.searchEvents({ limit: 10 })
  expect(everything.events.map((event) => event.event_id)).toEqual([...all].reverse())
  expect(everything.pagination_key).toBeUndefined()

  const visitor = identified[0]?.visitorId
  const byVisitor = await client.searchEvents({ visitor_id: visitor, limit: 10 })
  expect(byVisitor.events.map((event) => event.event_id)).toEqual([all[1], all[0]])
  const byLinked = await client.searchEvents({ linked_id: 'account-2' })
  expect(byLinked.events.map((event) => event.event_id)).toEqual([all[2]])
  const filtered = await client.searchEvents({
    bot: 'none',
    ip_address: '127.0.0.0/8',
    start: Date.now() - 3_600_000,
    end: new Date(Date.now() + 60_000).toISOString(),
    tampering: false,
    min_suspect_score: 0,
  })
  expect(filtered.events).toHaveLength(all.length)
  expect((await client.searchEvents({ bot: 'bad' })).events).toEqual([])

  for (const reverse of [false, true]) {
    const seen: string[] = []
    let paginationKey: string | undefined
    do {
      const page = await client.searchEvents({ limit: 3, reverse, pagination_key: paginationKey })
      expect(page.events.length).toBeLessThanOrEqual(3)
      seen.push(...page.events.map((event) => event.event_id))
      paginationKey = page.pagination_key
    } while (paginationKey)
    expect(seen).toEqual(reverse ? all : [...all].reverse())
  }
})

test('updateEvent sets linked_id, tags and suspect, which search then filters on', async () => {
  const client = fingerprintClient(apiKey)
  const target = identified[3]?.requestId ?? ''
  await client.updateEvent(target, { linked_id: 'account-9', tags: { reviewed: true }, suspect: true })
  expect(await client.getEvent(target)).toMatchObject({
    linked_id: 'account-9',
    tags: { reviewed: true },
    suspect: true,
  })
  const suspects = await client.searchEvents({ suspect: true })
  expect(suspects.events.map((event) => event.event_id)).toEqual([target])
})

test("unsealEventsResponse opens identify's sealed_result with the site's key, also during a rotation", async () => {
  const client = fingerprintClient(apiKey)
  const first = identified[0]
  const key = { key: Buffer.from(sealingKey, 'base64'), algorithm: DecryptionAlgorithm.Aes256Gcm }
  const unsealed = await unsealEventsResponse(Buffer.from(first?.sealed_result ?? '', 'base64'), [key])
  // The sealed event is the Server API's event: identical field for field.
  expect(unsealed).toEqual(await client.getEvent(first?.requestId ?? ''))

  const next = await created<{ key: string; sealing: boolean }>(
    tessera.post('/api/console/sealing-keys', { data: { siteId: site.id } }),
  )
  expect(next.sealing).toBe(false)
  const during = await identify(504)
  const nextKey = { key: Buffer.from(next.key, 'base64'), algorithm: DecryptionAlgorithm.Aes256Gcm }
  const opened = await unsealEventsResponse(Buffer.from(during.sealed_result ?? '', 'base64'), [nextKey, key])
  expect(opened.event_id).toBe(during.requestId)
  await expect(
    unsealEventsResponse(Buffer.from(during.sealed_result ?? '', 'base64'), [
      { key: randomBytes(32), algorithm: DecryptionAlgorithm.Aes256Gcm },
    ]),
  ).rejects.toThrow(/Unable to decrypt/)
})

test("isValidWebhookSignature accepts Tessera's Fingerprint-format webhooks and rejects a tampered body", async () => {
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4)
  const ids = new Set(identified.map((event) => event.requestId))
  for (const delivery of receiver.received) {
    expect(
      isValidWebhookSignature({ header: delivery.signature, data: delivery.body, secret: webhookSecret }),
    ).toBe(true)
    const event = JSON.parse(delivery.body.toString()) as Event
    expect(ids.has(event.event_id)).toBe(true)
    const tampered = Buffer.from(delivery.body.toString().replace('"not_detected"', '"bad"'))
    expect(tampered.equals(delivery.body)).toBe(false)
    expect(
      isValidWebhookSignature({ header: delivery.signature, data: tampered, secret: webhookSecret }),
    ).toBe(false)
  }
})

test('network signals: a cloud address, a Tokyo browser on a German address and a Tor exit, read and searched by the SDK', async () => {
  const client = fingerprintClient(apiKey)
  const cloud = await identify(601, {}, { forwardedFor: '3.5.140.2', timezone: 'Asia/Seoul' })
  const travelling = await identify(602, {}, { forwardedFor: '85.214.132.117', timezone: 'Asia/Tokyo' })
  const tor = await identify(603, {}, { forwardedFor: '185.220.101.1', timezone: 'Europe/Berlin' })

  const fromCloud = await client.getEvent(cloud.requestId)
  expect(fromCloud.ip_address).toBe('3.5.140.2')
  expect(fromCloud.ip_info?.v4).toMatchObject({
    address: '3.5.140.2',
    asn: '16509',
    asn_type: 'hosting',
    datacenter_result: true,
    datacenter_name: 'Amazon AWS',
    geolocation: { country_code: expect.stringMatching(/^[A-Z]{2}$/) },
  })
  const vpnEvent = await client.getEvent(travelling.requestId)
  expect(vpnEvent).toMatchObject({
    vpn: true,
    vpn_confidence: 'high',
    vpn_origin_timezone: 'Asia/Tokyo',
    vpn_origin_country: 'DE',
    vpn_methods: { timezone_mismatch: true, public_vpn: false, relay: false },
    ip_info: {
      v4: { geolocation: { country_code: 'DE', country_name: 'Germany' }, datacenter_result: false },
    },
  })
  expect((await client.getEvent(tor.requestId)).ip_blocklist).toEqual({ tor_node: true })
  // The address's own events (ipVelocity): one identification from this cloud address so far.
  expect(fromCloud.velocity?.ip_events).toEqual({ '5_minutes': 1, '1_hour': 1, '24_hours': 1 })
  // A request straight from the test (no forwarded address): loopback, in no database.
  const local = await client.getEvent(identified[0]?.requestId ?? '')
  expect(local.ip_info?.v4).toEqual({ address: '127.0.0.1', datacenter_result: false })
  expect(local.vpn).toBe(false)

  const ids = (page: { events: { event_id: string }[] }) => page.events.map((event) => event.event_id)
  expect(ids(await client.searchEvents({ vpn: true }))).toEqual([travelling.requestId])
  // As Fingerprint's: the confidence of the verdict either way ("high" also when nothing was found).
  expect(ids(await client.searchEvents({ vpn: true, vpn_confidence: 'high' }))).toEqual([
    travelling.requestId,
  ])
  expect(ids(await client.searchEvents({ vpn_confidence: 'medium' }))).toEqual([])
  expect(ids(await client.searchEvents({ tor_node: true }))).toEqual([tor.requestId])
  expect(ids(await client.searchEvents({ asn: '16509' }))).toEqual([cloud.requestId])
  expect(ids(await client.searchEvents({ proxy: true }))).toEqual([])

  // The console shows where the latest events came from.
  const events = await tessera.get('/api/console/events')
  expect(JSON.stringify(await events.json())).toContain('Amazon AWS')
})

test('a deny-listed range is denied at sign-up, and the console shows why', async () => {
  const { sites } = (await (await tessera.get('/api/console/sites')).json()) as {
    sites: { id: string; isDefault: boolean }[]
  }
  const home = sites.find((entry) => entry.isDefault)
  const saved = await tessera.put(`/api/console/sites/${home?.id}/lists`, {
    data: { deny: ['203.0.113.9/24'], allow: [] },
  })
  expect(saved.status()).toBe(200)
  // The registration screen's own site: no site key, from a blocked address behind the trusted proxy.
  const components = syntheticDevice(611)
  const from = { 'x-forwarded-for': '203.0.113.9' }
  const identified = await tessera.post('/api/v1/identify', {
    headers: { 'content-type': 'application/json', ...browserHeaders(components), ...from },
    data: JSON.stringify({ components }),
  })
  const event = (await identified.json()) as {
    requestId: string
    signals: Record<string, { result: unknown }>
  }
  expect(event.signals.ipBlocklist).toMatchObject({ result: true })
  const signup = await tessera.post('/api/registration', {
    headers: { origin: server.url, ...from },
    data: {
      requestId: event.requestId,
      fields: {
        name: 'Blocked',
        email: 'blocked@example.com',
        password: 'cobalt-meridian-lantern-77',
        terms: true,
      },
    },
  })
  expect(signup.status()).toBe(200)
  expect(await signup.json()).toMatchObject({ outcome: 'deny' })
  const decisions = await (await tessera.get('/api/console/decisions')).json()
  expect(JSON.stringify(decisions)).toContain("The address range 203.0.113.0/24 is on this site's deny list.")
})

test("the console's overview breaks identifications down by network type and country; the look-up lists a range's visitors", async ({
  page,
}) => {
  await page.goto(`${server.url}/`)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  // The charts' figures, as a screen reader reads them.
  const byType = page.getByRole('table', { name: 'By network type' })
  for (const type of ['Data centre', 'VPN', 'Tor', 'Unplaced address'])
    await expect(byType.getByRole('rowheader', { name: type })).toHaveCount(1)
  await expect(
    page.getByRole('table', { name: 'By country' }).getByRole('rowheader', { name: /Germany/ }),
  ).toHaveCount(1)
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible()

  const search = page.getByRole('search')
  await search.getByRole('textbox').fill('85.214.132.0/24')
  await search.getByRole('button', { name: 'Look up' }).click()
  await expect(page.getByRole('heading', { name: 'Visitors from 85.214.132.0/24' })).toBeVisible()
  const listed = page.getByRole('region', { name: 'Visitors from 85.214.132.0/24' })
  await expect(listed.getByRole('cell', { name: '85.214.132.117' })).toHaveCount(1)
  await listed.getByRole('button', { name: /^[\w-]{20}$/ }).click()
  await expect(page.getByRole('heading', { name: /^Visitor [\w-]{20}$/ })).toBeVisible()
  // From the visitor, every visitor of one of its addresses.
  await page.getByRole('button', { name: '85.214.132.117' }).click()
  await expect(page.getByRole('heading', { name: 'Visitors from 85.214.132.117' })).toBeVisible()

  await search.getByRole('textbox').fill('10.0.0.0/8')
  await search.getByRole('button', { name: 'Look up' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'or a narrower range' })).toBeVisible()
})

test('bad input and other sites get 4xx in v4 error shape, parsed by the SDK', async () => {
  const client = fingerprintClient(apiKey)
  const target = identified[2]?.requestId ?? ''
  const parse = await serverApiError(client.searchEvents({ limit: 0 }))
  expect([parse.statusCode, parse.errorCode]).toEqual([400, 'request_cannot_be_parsed'])
  const emulator = await serverApiError(client.searchEvents({ emulator: true }))
  expect([emulator.statusCode, emulator.errorCode]).toEqual([400, 'request_cannot_be_parsed'])
  const empty = await serverApiError(client.updateEvent(target, {}))
  expect([empty.statusCode, empty.errorCode]).toEqual([400, 'request_cannot_be_parsed'])
  const unknown = await serverApiError(client.getEvent('no-such-event'))
  expect([unknown.statusCode, unknown.errorCode]).toEqual([404, 'event_not_found'])
  const wrongKey = await serverApiError(fingerprintClient(`${apiKey.slice(0, -4)}AAAA`).getEvent(target))
  expect([wrongKey.statusCode, wrongKey.errorCode]).toEqual([403, 'secret_api_key_not_found'])

  // Another site's key: nothing of this site is found, and nothing changes.
  const other = await created<{ id: string }>(
    tessera.post('/api/console/sites', { data: { name: 'Other shop', allowedOrigins: [] } }),
  )
  const otherKey = (
    await created<{ key: string }>(
      tessera.post('/api/console/keys', { data: { siteId: other.id, name: 'other' } }),
    )
  ).key
  const otherClient = fingerprintClient(otherKey)
  expect((await serverApiError(otherClient.getEvent(target))).errorCode).toBe('event_not_found')
  expect((await serverApiError(otherClient.updateEvent(target, { suspect: true }))).errorCode).toBe(
    'event_not_found',
  )
  expect(
    (await serverApiError(otherClient.deleteVisitorData(identified[2]?.visitorId ?? ''))).errorCode,
  ).toBe('visitor_not_found')
  expect((await otherClient.searchEvents({})).events).toEqual([])
  expect(await client.getEvent(target)).not.toHaveProperty('suspect')
})

test('deleteVisitorData erases the visitor on the site; its events are then not found', async () => {
  const client = fingerprintClient(apiKey)
  const [first] = identified
  await client.deleteVisitorData(first?.visitorId ?? '')
  const gone = await serverApiError(client.getEvent(first?.requestId ?? ''))
  expect([gone.statusCode, gone.errorCode]).toEqual([404, 'event_not_found'])
  expect((await client.searchEvents({ visitor_id: first?.visitorId })).events).toEqual([])
  const again = await serverApiError(client.deleteVisitorData(first?.visitorId ?? ''))
  expect([again.statusCode, again.errorCode]).toEqual([404, 'visitor_not_found'])
})

test('the console manages sealing keys and webhook formats by keyboard, without accessibility violations', async ({
  page,
}) => {
  await page.goto(`${server.url}/`)
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  // By its heading: every card names the other sites (whom to share visitors with).
  const card = page.getByRole('article', { name: 'SDK shop' })
  const sealing = card.getByRole('region', { name: 'Sealed results of SDK shop' })
  // The rotation started above: two keys, the older seals.
  await expect(sealing.getByRole('list', { name: 'Sealing keys' }).getByRole('listitem')).toHaveCount(2)
  await expect(sealing.getByText('seals now')).toBeVisible()
  await expect(sealing.getByText('encrypted at rest')).toHaveCount(2)
  await expect(sealing.getByText('Rotation under way')).toBeVisible()

  // Remove the older key by keyboard: a question first, focus on the safe answer.
  await sealing.getByRole('button', { name: 'Remove' }).first().focus()
  await page.keyboard.press('Enter')
  await expect(sealing.getByRole('button', { name: 'Keep it' })).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Enter')
  await expect(sealing.getByRole('list', { name: 'Sealing keys' }).getByRole('listitem')).toHaveCount(1)
  await expect(sealing.getByText('seals now')).toBeVisible()

  // Start the next rotation: the new key is shown once.
  await sealing.getByRole('button', { name: 'Rotate: create the next key' }).click()
  const shown = sealing.getByRole('status').filter({ hasText: 'Copy this key now' })
  await expect(shown).toContainText('it seals once you remove the current one')
  const key = ((await shown.locator('code').first().textContent()) ?? '').trim()
  expect(Buffer.from(key, 'base64')).toHaveLength(32)

  await card.getByLabel('URL').fill('https://hooks.example/fingerprint')
  await card.getByLabel('Format', { exact: true }).selectOption('fingerprint-v4')
  // Sign-up decisions have no Fingerprint form: the form says so under the choice.
  await card.getByLabel("Sign-up decisions (Tessera's format)").check()
  await card.getByRole('button', { name: 'Add webhook' }).click()
  await expect(card.getByText("Fingerprint's format has no sign-up decisions")).toBeVisible()
  await card.getByLabel("Sign-up decisions (Tessera's format)").uncheck()
  await card.getByRole('button', { name: 'Add webhook' }).click()
  await expect(card.getByRole('status').filter({ hasText: 'fpjs-event-signature' })).toBeVisible()
  const added = card.getByRole('listitem').filter({ hasText: 'https://hooks.example/fingerprint' })
  await expect(added).toContainText('Fingerprint v4')
  // Deleting asks first, and can be undone for a while.
  await added.getByRole('button', { name: 'Delete' }).click()
  await added.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(added).toContainText('deleted')
  await added.getByRole('button', { name: 'Undo' }).click()
  await expect(added.getByRole('button', { name: 'Delete' })).toBeVisible()
  await expect(added.getByRole('button', { name: 'Send a test delivery' })).toBeVisible()

  const results = await new AxeBuilder({ page }).include('main').analyze()
  const serious = results.violations.filter((violation) =>
    ['serious', 'critical'].includes(violation.impact ?? ''),
  )
  expect(serious.map((violation) => violation.id)).toEqual([])

  await sealing.getByRole('button', { name: 'I have copied it' }).click()
  await expect(page.getByText(key)).toHaveCount(0)

  // A test delivery to the local receiver: sent, logged, each attempt's request and answer shown.
  const hook = card.getByRole('listitem').filter({ hasText: receiver.url })
  await hook.getByRole('button', { name: 'Send a test delivery' }).click()
  const testRow = hook.getByRole('row').filter({ hasText: 'test' })
  await expect(testRow).toContainText('delivered', { timeout: 15_000 })
  await testRow.getByRole('button', { name: 'Attempts' }).click()
  await expect(hook.getByText(/HTTP 2\d\d/).first()).toBeVisible()
  await hook.getByText('Request', { exact: true }).click()
  await expect(hook.locator('pre').first()).toContainText('fpjs-event-signature: v1=')
  const results2 = await new AxeBuilder({ page }).include('main').analyze()
  expect(
    results2.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? '')),
  ).toEqual([])
})
