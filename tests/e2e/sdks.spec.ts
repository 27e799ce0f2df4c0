import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test'
import type * as ServerSdk from 'tessera/server'
import {
  ADMIN_PASSWORD,
  EXTRA_SERVER_PORTS,
  FIRST_PARTY_SITE_PORT,
  WEBHOOK_RECEIVER_PORT,
} from '../support/e2e-constants'
import { type FirstPartySite, PROXY_ADDRESS, startFirstPartySite } from '../support/first-party-site'
import { type RunningServer, removeServerFiles, startTesseraServer } from '../support/tessera-server'

// The SDKs as an integrator gets them: packed with `npm pack ./dist`, installed, imported by name.
// A Tessera of its own, served first-party by another origin through a proxy it trusts by address.

let tessera: RunningServer
let site: FirstPartySite
let console_: APIRequestContext
let sdk: typeof ServerSdk
let siteKey: string
let siteId: string
const packageDir = path.resolve('test-results/sdk-package')

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  tessera = await startTesseraServer({
    port: EXTRA_SERVER_PORTS.sdks,
    env: {
      TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TESSERA_ALLOWED_ORIGINS: `http://localhost:${FIRST_PARTY_SITE_PORT}`,
      TESSERA_AGENT_PATH: '/metrics/t.js',
      TESSERA_API_PREFIX: '/metrics/r',
      TESSERA_TRUSTED_PROXIES: PROXY_ADDRESS,
      TESSERA_WEBHOOK_ALLOW_PRIVATE: '1',
    },
  })
  console_ = await request.newContext({ baseURL: tessera.url })
  const signedIn = await console_.post('/api/console/session', { data: { password: ADMIN_PASSWORD } })
  expect(signedIn.ok()).toBe(true)
  const { sites } = (await (await console_.get('/api/console/sites')).json()) as {
    sites: { id: string; publicKey: string; isDefault: boolean }[]
  }
  const site_ = sites.find((entry) => entry.isDefault)
  if (!site_) throw new Error('no default site')
  siteKey = site_.publicKey
  siteId = site_.id
  site = await startFirstPartySite({ port: FIRST_PARTY_SITE_PORT, tessera: tessera.url, siteKey })
  sdk = (await installPackedSdk()).server
})

test.afterAll(async () => {
  await site?.close()
  await console_?.dispose()
  await tessera?.stop()
  if (tessera) removeServerFiles(tessera)
  rmSync(packageDir, { recursive: true, force: true })
})

/** Packs dist/ and unpacks the tarball as node_modules/tessera of a directory inside the repository. */
async function installPackedSdk() {
  rmSync(packageDir, { recursive: true, force: true })
  mkdirSync(packageDir, { recursive: true })
  const packed = spawnSync('npm', ['pack', './dist', '--pack-destination', packageDir, '--json'], {
    encoding: 'utf8',
  })
  expect(packed.status, packed.stderr).toBe(0)
  const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[]
  if (!tarball) throw new Error('npm pack made no tarball')
  const { filename, files } = tarball
  // Only the SDKs: not the server bundle that also lives in dist/.
  expect(files.map((file) => file.path.split('/')[0]).sort()).toEqual(
    expect.arrayContaining(['agent', 'node', 'package.json', 'react', 'types']),
  )
  expect(files.some((file) => file.path.startsWith('server/'))).toBe(false)
  const installed = path.join(packageDir, 'node_modules', 'tessera')
  mkdirSync(installed, { recursive: true })
  const untar = spawnSync('tar', [
    '-xzf',
    path.join(packageDir, filename),
    '-C',
    installed,
    '--strip-components=1',
  ])
  expect(untar.status).toBe(0)
  // Resolved by package name, through the manifest's exports (react from the repository's node_modules).
  writeFileSync(
    path.join(packageDir, 'entry.mjs'),
    "export * as server from 'tessera/server'\nexport * as react from 'tessera/react'\nexport * as agent from 'tessera/agent'\n",
  )
  // The declarations resolve by name too, for a TypeScript integrator.
  writeFileSync(
    path.join(packageDir, 'consumer.ts'),
    `import { createClient, verifyWebhook, type Event } from 'tessera/server'
import { TesseraProvider, useVisitorData, type VisitorData } from 'tessera/react'
export const client = createClient({ endpoint: 'https://tessera.example', secretKey: 'sk_x' })
export const event: Promise<Event> = client.getEvent('req')
export const ok: boolean = verifyWebhook('{}', 't=1,v1=00', 'whsec')
export type Used = [typeof TesseraProvider, typeof useVisitorData, VisitorData]
`,
  )
  writeFileSync(
    path.join(packageDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [path.resolve('node_modules/@types')],
      },
      files: ['consumer.ts'],
    }),
  )
  const types = spawnSync(
    process.execPath,
    [path.resolve('node_modules/typescript/bin/tsc'), '-p', packageDir],
    {
      encoding: 'utf8',
    },
  )
  expect(types.status, types.stdout + types.stderr).toBe(0)
  const entry = (await import(pathToFileURL(path.join(packageDir, 'entry.mjs')).href)) as {
    server: typeof ServerSdk
    react: { TesseraProvider: unknown; useVisitorData: unknown }
    agent: { load: unknown }
  }
  expect(typeof entry.react.useVisitorData).toBe('function')
  expect(typeof entry.agent.load).toBe('function')
  return entry
}

/** Collects every Content-Security-Policy violation, in the page and in its frames. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  const logged: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) logged.push(message.text())
  })
  return async () => {
    const reported: string[] = []
    for (const frame of page.frames())
      reported.push(
        ...(await frame.evaluate(
          () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
        )),
      )
    return [...reported, ...logged]
  }
}

let firstPartyRequestId = ''
let firstPartyVisitorId = ''

test('a server with a test-only setting warns at start', () => {
  const started = readFileSync(tessera.logFile, 'utf8')
  expect(started).toMatch(/test-only settings are on \(TESSERA_WEBHOOK_ALLOW_PRIVATE\)/)
})

test.describe('first-party serving', () => {
  test('the browser talks only to the integrator’s origin, and the event keeps the browser’s address', async ({
    page,
  }) => {
    const hosts = new Set<string>()
    page.on('request', (sent) => hosts.add(new URL(sent.url()).origin))
    await page.goto(`${site.origin}/`)
    await expect(page.getByTestId('visitor-id')).toHaveText(/\S{8,}/, { timeout: 15_000 })
    firstPartyRequestId = (await page.getByTestId('request-id').textContent()) ?? ''
    firstPartyVisitorId = (await page.getByTestId('visitor-id').textContent()) ?? ''
    expect([...hosts]).toEqual([site.origin])

    const event = await sdk
      .createClient({ endpoint: tessera.url, secretKey: await newKey() })
      .getEvent(firstPartyRequestId)
    expect(event.ip).toBe('127.0.0.1') // the browser's, not the proxy's (127.0.0.2)
    expect(event.visitorId).toBe(firstPartyVisitorId)
    expect(event.url).toBe(`${site.origin}/`)
    expect(event.linkedId).toBe('shopper-1')
    expect(event.tag).toEqual({ page: 'checkout' })
    // The agent's nonce came through the proxy too (TESSERA_API_PREFIX's /nonce), and its headers
    // were the browser's own.
    expect(event.signals.agentProof?.result).toBe('valid')
    expect(event.signals.bot?.reasons.join(' ')).not.toMatch(/header|shape/)
  })

  test('the loader is served at the public path with the canonical one’s headers', async () => {
    const proxied = await fetch(`${site.origin}/metrics/t.js`)
    const canonical = await fetch(`${tessera.url}/agent.js`)
    expect(proxied.status).toBe(200)
    const body = await proxied.text()
    expect(body).toBe(await canonical.text())
    expect(body).toContain('Tessera')
    expect(proxied.headers.get('cache-control')).toBe(canonical.headers.get('cache-control'))
    // Only the loader and the agent's calls have aliases: the rest of the API keeps one address.
    expect((await fetch(`${site.origin}/metrics/r/events/${firstPartyRequestId}`)).status).toBe(404)
  })

  test('a client reaching Tessera directly cannot choose its address', async () => {
    const identified = await fetch(`${tessera.url}/metrics/r/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
      body: JSON.stringify({ siteKey, components: { timezone: { value: 'UTC', duration: 0 } } }),
    })
    expect(identified.status).toBe(200)
    const { requestId } = (await identified.json()) as { requestId: string }
    const event = await sdk
      .createClient({ endpoint: tessera.url, secretKey: await newKey() })
      .getEvent(requestId)
    expect(event.ip).toBe('127.0.0.1')
  })

  test('the console gives the embed snippet for the public paths beside the direct one', async ({ page }) => {
    await page.goto(`${tessera.url}/`)
    await page.getByLabel('Password').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const firstParty = page.getByRole('figure').filter({ hasText: 'served from your own domain' })
    await expect(firstParty).toContainText('<script src="/metrics/t.js"></script>')
    await expect(firstParty).toContainText(`Tessera.load({ siteKey: '${siteKey}', apiPrefix: '/metrics/r' })`)
    const direct = page.getByRole('figure').filter({ hasText: /^Embed snippetCopy/ })
    await expect(direct.first()).toContainText(`<script src="${tessera.url}/agent.js"></script>`)
  })

  test('the page identifies under a strict CSP with no violation, first-party', async ({ page }) => {
    const violations = await watchViolations(page)
    await page.goto(`${site.origin}/?csp=strict`)
    await expect(page.getByTestId('visitor-id')).toHaveText(/\S{8,}/, { timeout: 15_000 })
    expect(await violations()).toEqual([])
  })

  test('the page identifies under a strict CSP with no violation, through /frame', async ({ page }) => {
    const violations = await watchViolations(page)
    await page.goto(`${site.origin}/?mode=frame&csp=strict`)
    await expect(page.getByTestId('visitor-id')).toHaveText(/\S{8,}/, { timeout: 15_000 })
    expect(page.frames().some((frame) => frame.url().startsWith(`${tessera.url}/frame`))).toBe(true)
    expect(await violations()).toEqual([])
  })
})

async function newKey(): Promise<string> {
  const created = await console_.post('/api/console/keys', { data: { siteId, name: `sdk ${Date.now()}` } })
  expect(created.status()).toBe(201)
  return ((await created.json()) as { key: string }).key
}

test.describe('Node SDK against a running Tessera', () => {
  test('getEvent, getVisitor, searchEvents and deleteVisitor', async () => {
    expect(firstPartyRequestId).not.toBe('')
    const client = sdk.createClient({ endpoint: tessera.url, secretKey: await newKey() })
    const event = await client.getEvent(firstPartyRequestId)
    expect(event.requestId).toBe(firstPartyRequestId)

    const history = await client.getVisitor(firstPartyVisitorId, { limit: 1 })
    expect(history.visitorId).toBe(firstPartyVisitorId)
    expect(history.events).toHaveLength(1)
    if (history.nextCursor) {
      const older = await client.getVisitor(firstPartyVisitorId, { limit: 1, before: history.nextCursor })
      expect(older.events[0]?.requestId).not.toBe(history.events[0]?.requestId)
    }

    const found = await client.searchEvents({ linkedId: 'shopper-1', visitorId: firstPartyVisitorId })
    expect(found.events.map((entry) => entry.requestId)).toContain(firstPartyRequestId)
    expect((await client.searchEvents({ linkedId: 'nobody' })).events).toEqual([])

    await expect(client.deleteVisitor(firstPartyVisitorId)).resolves.toBeUndefined()
    const gone = await client.getEvent(firstPartyRequestId).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(sdk.TesseraApiError)
    expect(gone).toMatchObject({ status: 404, code: 'not_found' })
  })

  test('a bad key is a typed error', async () => {
    const client = sdk.createClient({ endpoint: tessera.url, secretKey: 'sk_nope_not-a-key' })
    const error = await client.getEvent('anything').catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(sdk.TesseraApiError)
    expect(error).toMatchObject({ name: 'TesseraApiError', status: 401, code: 'unauthorized' })
    const invalid = await sdk
      .createClient({ endpoint: tessera.url, secretKey: await newKey() })
      .searchEvents({ since: 'yesterday' })
      .catch((thrown: unknown) => thrown)
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request' })
    const unreachable = await sdk
      .createClient({ endpoint: 'http://127.0.0.1:9', secretKey: 'sk_x' })
      .getEvent('x')
      .catch((thrown: unknown) => thrown)
    expect(unreachable).toMatchObject({ status: 0, code: 'network_error' })
    // An ID is one path segment: it cannot walk to another route.
    const walked = await sdk
      .createClient({ endpoint: tessera.url, secretKey: await newKey() })
      .deleteVisitor('..')
      .catch((thrown: unknown) => thrown)
    expect(walked).toMatchObject({ status: 400, code: 'invalid_request' })
  })

  test('verifyWebhook accepts a real delivery, and refuses it tampered or stale', async ({ page }) => {
    const deliveries: { body: string; signature: string }[] = []
    const receiver: Server = createServer((incoming, answer) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => {
        deliveries.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(incoming.headers[sdk.WEBHOOK_SIGNATURE_HEADER] ?? ''),
        })
        answer.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(WEBHOOK_RECEIVER_PORT, '127.0.0.1', resolve))
    try {
      const created = await console_.post('/api/console/webhooks', {
        data: { siteId, url: `http://127.0.0.1:${WEBHOOK_RECEIVER_PORT}/tessera` },
      })
      expect(created.status()).toBe(201)
      const { secret } = (await created.json()) as { secret: string }

      await page.goto(`${site.origin}/`)
      await expect(page.getByTestId('visitor-id')).toHaveText(/\S{8,}/, { timeout: 15_000 })
      await expect.poll(() => deliveries.length, { timeout: 30_000 }).toBeGreaterThan(0)
      const [delivery] = deliveries
      if (!delivery) throw new Error('no delivery')

      expect(sdk.verifyWebhook(delivery.body, delivery.signature, secret)).toBe(true)
      expect(sdk.verifyWebhook(Buffer.from(delivery.body), delivery.signature, secret)).toBe(true)
      const tampered = delivery.body.replace('"identification"', '"identificatioN"')
      expect(tampered).not.toBe(delivery.body)
      expect(sdk.verifyWebhook(tampered, delivery.signature, secret)).toBe(false)
      expect(sdk.verifyWebhook(delivery.body, delivery.signature, `${secret}x`)).toBe(false)
      const sentAt = Number(/t=(\d+)/.exec(delivery.signature)?.[1]) * 1000
      const later = { now: sentAt + 301_000 }
      expect(sdk.verifyWebhook(delivery.body, delivery.signature, secret, later)).toBe(false)
      expect(
        sdk.verifyWebhook(delivery.body, delivery.signature, secret, { ...later, toleranceSeconds: 600 }),
      ).toBe(true)
    } finally {
      await new Promise((resolve) => receiver.close(resolve))
    }
  })
})
