import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ConsoleError, callConsole, consoleUrl } from '@/components/console/api'
import { type ConsoleEndpoint, consoleEndpoints } from '@/contracts/console-endpoints'
import { getDb } from '@/server/db/client'
import { decideSignup } from '@/server/signup/decide-signup'
import { signupFields } from '@/server/signup/test-signup'
import { OPERATOR_PASSWORD, startedTessera } from '../../../../tests/support/console-factories'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../tests/support/process-database'
import { syntheticDevice } from '../../../../tests/support/synthetic-devices'
import { POST as identify } from '../v1/identify/route'

// The console's endpoint table (contracts/console-endpoints.ts) against the routes it describes:
// the same endpoints, the same path parameters, and the answers the routes really give.

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>
type RouteModule = Partial<Record<(typeof METHODS)[number], Handler>>

const routesFolder = import.meta.dirname
const base = 'http://127.0.0.1:3000'
const endpoints = Object.keys(consoleEndpoints) as ConsoleEndpoint[]

/** The route files under src/app/api/console, as paths relative to it (`sites/[siteId]/route.ts`). */
function routeFiles(folder = routesFolder): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) return routeFiles(file)
    return entry.name === 'route.ts' ? [path.relative(routesFolder, file)] : []
  })
}

/** `sites/[siteId]/route.ts` → `/api/console/sites/:siteId`, as the table writes paths. */
function pathOf(routeFile: string): string {
  const folder = path.dirname(routeFile).split(path.sep).join('/')
  return `/api/console/${folder}`.replace(/\[(\w+)\]/g, ':$1')
}

function routeFileOf(endpoint: ConsoleEndpoint): string {
  const [, endpointPath = ''] = endpoint.split(' ')
  const folder = endpointPath.replace('/api/console/', '').replace(/:(\w+)/g, '[$1]')
  return path.join(routesFolder, folder, 'route.ts')
}

const loadRoute = (endpoint: ConsoleEndpoint): Promise<RouteModule> => import(routeFileOf(endpoint))

describe('the console endpoint table', () => {
  it('lists every handler of every console route, and nothing else', async () => {
    const handlers: string[] = []
    for (const file of routeFiles()) {
      const route: RouteModule = await import(path.join(routesFolder, file))
      for (const method of METHODS)
        if (typeof route[method] === 'function') handlers.push(`${method} ${pathOf(file)}`)
    }
    expect(handlers.sort()).toEqual([...endpoints].sort())
  })

  it('has a parameter schema for exactly the path’s parameters, and each route reads its own entry', () => {
    for (const endpoint of endpoints) {
      const contract = consoleEndpoints[endpoint]
      const named = [...endpoint.matchAll(/:(\w+)/g)].map((match) => match[1])
      const checked = 'params' in contract ? Object.keys(contract.params.shape) : []
      expect(checked, endpoint).toEqual(named)
      // A route that validates or answers with a schema of its own would drift from its clients.
      if (Object.keys(contract).length > 0)
        expect(readFileSync(routeFileOf(endpoint), 'utf8'), endpoint).toContain(
          `consoleEndpoints['${endpoint}']`,
        )
    }
  })

  it('builds URLs as the routes read them: parameters filled in and encoded, the query after', () => {
    expect(consoleUrl('GET /api/console/webhooks/:webhookId', { params: { webhookId: 'a/b c' } })).toBe(
      '/api/console/webhooks/a%2Fb%20c',
    )
    expect(consoleUrl('GET /api/console/events', { query: { signal: 'bot', cursor: undefined } })).toBe(
      '/api/console/events?signal=bot',
    )
    expect(consoleUrl('GET /api/console/lookup', { query: { q: '198.51.100.0/24 & more' } })).toBe(
      '/api/console/lookup?q=198.51.100.0%2F24+%26+more',
    )
    expect(consoleUrl('GET /api/console/decisions', { query: {} })).toBe('/api/console/decisions')
  })
})

/** Which endpoint of the table a browser's request reaches, with its path parameters. */
function endpointOf(method: string, pathname: string) {
  for (const endpoint of endpoints) {
    const [endpointMethod, pattern = ''] = endpoint.split(' ')
    const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '')
    const match = new RegExp(`^${pattern.replace(/:\w+/g, '([^/]+)')}$`).exec(pathname)
    if (endpointMethod === method && match) {
      const values = match.slice(1).map(decodeURIComponent)
      return { endpoint, params: Object.fromEntries(names.map((name, index) => [name, values[index] ?? ''])) }
    }
  }
  throw new Error(`No console endpoint is ${method} ${pathname}.`)
}

/**
 * Runs `calls` with fetch answered by the console's route handlers in this process, as a browser
 * reaches them (its cookies kept), and holds every successful answer to its table entry: the
 * answer schema's parse gives it back unchanged (zod drops unknown keys, so an extra field shows),
 * and an entry without one answers 204. Returns the endpoints called; fetch is restored after.
 */
async function throughConsoleRoutes(calls: () => Promise<void>): Promise<Set<ConsoleEndpoint>> {
  const cookies = new Map<string, string>()
  const called = new Set<ConsoleEndpoint>()
  const fetching = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const url = new URL(String(input), base)
    const method = init.method ?? 'GET'
    const { endpoint, params } = endpointOf(method, url.pathname)
    const handler = (await loadRoute(endpoint))[method as (typeof METHODS)[number]]
    if (!handler) throw new Error(`The route of ${endpoint} has no ${method} handler.`)
    const headers = new Headers(init.headers)
    headers.set('x-forwarded-for', '10.0.0.1')
    if (cookies.size > 0)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    const response = await handler(new Request(url, { ...init, headers }), {
      params: Promise.resolve(params),
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (cookie.split(';')[0] ?? '').split('=')
      if (value) cookies.set(name, value)
      else cookies.delete(name)
    }
    if (response.ok) {
      const contract = consoleEndpoints[endpoint]
      if ('answer' in contract) {
        const answer = await response.clone().json()
        expect(contract.answer.parse(answer), endpoint).toEqual(answer)
      } else if ('download' in contract) {
        expect(response.headers.get('content-disposition'), endpoint).toMatch(/^attachment; filename="/)
      } else expect(response.status, endpoint).toBe(204)
      called.add(endpoint)
    }
    return response
  })
  try {
    await calls()
  } finally {
    fetching.mockRestore()
  }
  return called
}

async function identifyFrom(ip: string, seed: number) {
  const response = await identify(
    new Request(`${base}/api/v1/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ components: syntheticDevice(seed), linkedId: `account-${seed}` }),
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as { requestId: string; visitorId: string }
}

describe('the console’s client, through the real routes', () => {
  beforeEach(async () => {
    await startedTessera(await freshProcessDatabase())
  })
  afterAll(closeProcessDatabase)

  it('calls every endpoint of the table and gets the answer its entry describes', async () => {
    const db = await getDb()
    const visit = await identifyFrom('198.51.100.23', 6101)
    const other = await identifyFrom('198.51.100.24', 6102)

    const called = await throughConsoleRoutes(async () => {
      await callConsole('GET /api/console/session/challenge', { query: { username: 'admin' } })
      await callConsole('POST /api/console/session', { body: { password: OPERATOR_PASSWORD } })
      expect(await callConsole('GET /api/console/session')).toEqual({ username: 'admin', role: 'owner' })

      const overview = await callConsole('GET /api/console/overview', { query: { range: '7d' } })
      expect(overview.totals.identifications).toBe(2)
      const page = await callConsole('GET /api/console/events', { query: { signal: 'all' } })
      expect(page.events.map((event) => event.requestId)).toContain(visit.requestId)
      const eventDetail = await callConsole('GET /api/console/events/:requestId', {
        params: { requestId: visit.requestId },
      })
      expect(eventDetail).toMatchObject({
        event: { requestId: visit.requestId },
        method: 'new',
        decision: null,
      })
      const exported = await fetch(
        consoleUrl('GET /api/console/export', { query: { kind: 'events', format: 'csv', signal: 'all' } }),
      )
      expect(await exported.text()).toContain(visit.requestId)
      const panel = await callConsole('GET /api/console/lookup', { query: { q: visit.requestId } })
      expect(panel.linkedIds).toEqual(['account-6101'])
      const network = await callConsole('GET /api/console/network', { query: { q: '198.51.100.0/24' } })
      expect(network.visitors).toHaveLength(2)
      await callConsole('GET /api/console/decisions', { query: { outcome: 'deny' } })

      const { policy } = await callConsole('GET /api/console/rules', { query: {} })
      const preview = await callConsole('POST /api/console/rules/preview', {
        query: {},
        body: { ...policy, vpnRule: 'deny' },
      })
      expect(preview.days).toBe(7)
      await callConsole('PUT /api/console/rules', { query: {}, body: { ...policy, botRule: 'challenge' } })
      expect((await callConsole('GET /api/console/rules', { query: {} })).audit).toHaveLength(1)
      // A site of its own rules, then back to the default it inherits.
      const { sites: known } = await callConsole('GET /api/console/sites')
      const homeKey = known.find((entry) => entry.isDefault)?.publicKey ?? ''
      expect((await callConsole('GET /api/console/rules', { query: { site: homeKey } })).inherited).toBe(true)
      await callConsole('PUT /api/console/rules', {
        query: { site: homeKey },
        body: { ...policy, torRule: 'deny' },
      })
      const own = await callConsole('GET /api/console/rules', { query: { site: homeKey } })
      expect([own.inherited, own.policy.torRule]).toEqual([false, 'deny'])
      await callConsole('DELETE /api/console/rules', { query: { site: homeKey } })
      const inherited = await callConsole('GET /api/console/rules', { query: { site: homeKey } })
      expect([inherited.inherited, inherited.policy.botRule]).toEqual([true, 'challenge'])

      // A device labelled fraud is denied; its review approves it (labelled good) and leaves the queue.
      await callConsole('PUT /api/console/visitors/:visitorId/label', {
        params: { visitorId: visit.visitorId },
        body: { label: 'fraud' },
      })
      const signUp = (requestId: string, ip: string) =>
        decideSignup({ db, input: { requestId, fields: signupFields() }, context: { ip } })
      expect((await signUp(visit.requestId, '198.51.100.23')).outcome).toBe('deny')
      const queue = await callConsole('GET /api/console/reviews', { query: {} })
      expect(queue.decisions.map((decision) => decision.requestId)).toEqual([visit.requestId])
      expect(
        await callConsole('POST /api/console/reviews', {
          body: { requestId: visit.requestId, verdict: 'approve' },
        }),
      ).toEqual({ review: 'approved', visitorLabel: 'good', accountLabel: null })
      expect((await callConsole('GET /api/console/reviews', { query: {} })).decisions).toEqual([])
      // Undone, the verdict gives the device its label back and the sign-up its place in the queue.
      expect(
        await callConsole('DELETE /api/console/reviews/:requestId', {
          params: { requestId: visit.requestId },
        }),
      ).toEqual({ visitorLabel: 'fraud', accountLabel: null })
      expect(
        (await callConsole('GET /api/console/reviews', { query: {} })).decisions.map(
          (decision) => decision.requestId,
        ),
      ).toEqual([visit.requestId])
      await callConsole('POST /api/console/reviews', {
        body: { requestId: visit.requestId, verdict: 'approve' },
      })
      await callConsole('DELETE /api/console/visitors/:visitorId/label', {
        params: { visitorId: visit.visitorId },
      })
      // Whatever else it shows, an allow-listed address signs up.
      const home = (await callConsole('GET /api/console/sites')).sites.find((site) => site.isDefault)
      await callConsole('PUT /api/console/sites/:siteId/lists', {
        params: { siteId: home?.id ?? '' },
        body: { deny: [], allow: ['198.51.100.24'] },
      })
      expect((await signUp(other.requestId, '198.51.100.24')).outcome).toBe('allow')
      const [account] = (await callConsole('GET /api/console/lookup', { query: { q: other.visitorId } }))
        .accounts
      const accountParams = { accountId: account?.id ?? '' }
      await callConsole('PUT /api/console/accounts/:accountId/label', {
        params: accountParams,
        body: { label: 'good' },
      })
      const labelled = await callConsole('GET /api/console/lookup', { query: { q: other.visitorId } })
      expect(labelled.accounts[0]?.label).toMatchObject({ label: 'good', operator: 'admin' })
      await callConsole('DELETE /api/console/accounts/:accountId/label', { params: accountParams })

      const { sites } = await callConsole('GET /api/console/sites')
      const defaultSiteId = sites.find((site) => site.isDefault)?.id ?? ''
      const site = await callConsole('POST /api/console/sites', {
        body: { name: 'Shop', allowedOrigins: ['https://shop.example'] },
      })
      const params = { siteId: site.id }
      await callConsole('PATCH /api/console/sites/:siteId', {
        params,
        body: { name: 'Shop', allowedOrigins: [] },
      })
      await callConsole('PUT /api/console/sites/:siteId/lists', {
        params,
        body: { deny: ['203.0.113.9/24', '@spam.example'], allow: ['198.51.100.7'] },
      })
      await callConsole('PUT /api/console/sites/:siteId/workspace', {
        params,
        body: { shareWith: defaultSiteId },
      })
      const key = await callConsole('POST /api/console/keys', { body: { siteId: site.id, name: 'checkout' } })
      const sealingKey = await callConsole('POST /api/console/sealing-keys', { body: { siteId: site.id } })
      const webhook = await callConsole('POST /api/console/webhooks', {
        body: { siteId: site.id, url: 'https://hooks.example/tessera' },
      })
      const listed = await callConsole('GET /api/console/sites')
      const mine = listed.sites.find((entry) => entry.id === site.id)
      expect([mine?.apiKeys.length, mine?.sealingKeys.length, mine?.webhooks.length]).toEqual([1, 1, 1])
      expect([mine?.denyList, mine?.allowList]).toEqual([
        ['203.0.113.0/24', '@spam.example'],
        ['198.51.100.7'],
      ])

      const log = await callConsole('GET /api/console/webhooks/:webhookId', {
        params: { webhookId: webhook.id },
      })
      expect(log.deliveries).toEqual([])
      const { deliveryId } = await callConsole('POST /api/console/webhooks/:webhookId/tests', {
        params: { webhookId: webhook.id },
        body: {},
      })
      await callConsole('POST /api/console/webhooks/:webhookId/retries', {
        params: { webhookId: webhook.id },
        body: { deliveryId },
      })
      const detail = await callConsole('GET /api/console/webhooks/:webhookId/deliveries/:deliveryId', {
        params: { webhookId: webhook.id, deliveryId },
      })
      expect(detail.delivery.eventType).toBe('test')
      await callConsole('DELETE /api/console/webhooks/:webhookId', { params: { webhookId: webhook.id } })
      await callConsole('DELETE /api/console/webhooks/:webhookId/deletion', {
        params: { webhookId: webhook.id },
      })
      await callConsole('DELETE /api/console/webhooks/:webhookId', { params: { webhookId: webhook.id } })
      await callConsole('DELETE /api/console/keys/:keyId', { params: { keyId: key.id } })
      await callConsole('DELETE /api/console/keys/:keyId/revocation', { params: { keyId: key.id } })
      await callConsole('DELETE /api/console/keys/:keyId', { params: { keyId: key.id } })
      await callConsole('DELETE /api/console/sealing-keys/:keyId', { params: { keyId: sealingKey.id } })
      await callConsole('DELETE /api/console/visitors/:visitorId', { params: { visitorId: visit.visitorId } })

      // The team: an invitation withdrawn, one accepted (which signs its new analyst in), a role changed, a removal.
      const withdrawn = await callConsole('POST /api/console/invitations', { body: { role: 'admin' } })
      await callConsole('DELETE /api/console/invitations/:invitationId', {
        params: { invitationId: withdrawn.id },
      })
      const invited = await callConsole('POST /api/console/invitations', { body: { role: 'analyst' } })
      await callConsole('POST /api/console/invitations/acceptance', {
        body: { token: invited.token, username: 'ana', password: 'violet harbour lantern 42' },
      })
      expect(await callConsole('GET /api/console/session')).toEqual({ username: 'ana', role: 'analyst' })
      await callConsole('POST /api/console/session', { body: { password: OPERATOR_PASSWORD } })
      const team = await callConsole('GET /api/console/team')
      const ana = team.operators.find((member) => member.username === 'ana')?.id ?? ''
      await callConsole('PATCH /api/console/team/:operatorId', {
        params: { operatorId: ana },
        body: { role: 'admin' },
      })
      await callConsole('DELETE /api/console/team/:operatorId', { params: { operatorId: ana } })

      await callConsole('POST /api/console/password', {
        body: { currentPassword: OPERATOR_PASSWORD, newPassword: 'quartz-ember-harbour-51' },
      })
      expect(await callConsole('DELETE /api/console/session')).toBeUndefined()
    })
    expect([...called].sort()).toEqual([...endpoints].sort())
  })

  it('fails with the server’s own message, code and details', async () => {
    await throughConsoleRoutes(async () => {
      await callConsole('POST /api/console/session', { body: { password: OPERATOR_PASSWORD } })
      const failure = await callConsole('POST /api/console/sites', {
        body: { name: 'Shop', allowedOrigins: ['https://shop.example/path'] },
      }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(ConsoleError)
      expect(failure).toMatchObject({ status: 400, code: 'invalid_request', message: /scheme and host/ })
      await callConsole('DELETE /api/console/session')
      await expect(callConsole('GET /api/console/sites')).rejects.toMatchObject({
        status: 401,
        code: 'unauthorized',
      })
    })
  })
})
