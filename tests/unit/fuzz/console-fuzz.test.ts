import fc from 'fast-check'
import { beforeAll, describe } from 'vitest'
import * as decisions from '@/app/api/console/decisions/route'
import * as events from '@/app/api/console/events/route'
import * as keyById from '@/app/api/console/keys/[keyId]/route'
import * as keys from '@/app/api/console/keys/route'
import * as lookup from '@/app/api/console/lookup/route'
import * as network from '@/app/api/console/network/route'
import * as overview from '@/app/api/console/overview/route'
import * as password from '@/app/api/console/password/route'
import * as rules from '@/app/api/console/rules/route'
import * as sealingKeyById from '@/app/api/console/sealing-keys/[keyId]/route'
import * as sealingKeys from '@/app/api/console/sealing-keys/route'
import * as sessionChallenge from '@/app/api/console/session/challenge/route'
import * as session from '@/app/api/console/session/route'
import * as siteById from '@/app/api/console/sites/[siteId]/route'
import * as sites from '@/app/api/console/sites/route'
import * as visitorById from '@/app/api/console/visitors/[visitorId]/route'
import * as webhookById from '@/app/api/console/webhooks/[webhookId]/route'
import * as webhooks from '@/app/api/console/webhooks/route'
import { ensureFirstOperator } from '@/server/console/ensure-first-operator'
import { getDb } from '@/server/db/client'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { findSite } from '@/server/sites/find-site'
import { edge, type FuzzEndpoint, headerSafe, itFuzzesEach, route } from './fuzz-harness'

const PASSWORD = 'correct horse battery staple'
let cookie = ''
let siteIds: string[] = []

const siteId = fc.oneof(
  fc.nat().map((index) => siteIds[index % siteIds.length] ?? ''),
  edge.plausibleText,
)
const signedIn = () => ({ cookie })
/** The operator's session most of the time, else a forged or damaged cookie. */
const sessionCookie: fc.Arbitrary<Record<string, string>> = fc
  .oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: edge.text })
  .map(
    (junk): Record<string, string> =>
      junk === undefined ? {} : { cookie: `tessera_session=${headerSafe(junk)}` },
  )
const origins = fc.array(
  fc.oneof(
    fc.webUrl().map((url) => new URL(url).origin),
    edge.text,
  ),
  { maxLength: 3 },
)
const outcome = fc.constantFrom('deny', 'challenge', 'off', 'allow')
const threshold = fc.oneof(fc.integer({ min: 0, max: 2_000 }), edge.number)

beforeAll(async () => {
  const db = await getDb()
  await ensureDefaultSite({ db, origins: [] })
  await ensureFirstOperator({ db, configuredPassword: PASSWORD })
  const response = await session.POST(
    new Request('http://127.0.0.1:3000/api/console/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    }),
  )
  cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  siteIds = [(await findSite({ db }))?.id ?? '']
})

const endpoints: FuzzEndpoint[] = [
  {
    method: 'POST',
    path: '/api/console/sites',
    handler: sites.POST,
    headers: signedIn,
    caseHeaders: sessionCookie,
    body: fc.record({ name: edge.plausibleText, allowedOrigins: origins }),
  },
  {
    method: 'PATCH',
    path: '/api/console/sites/{siteId}',
    handler: route(siteById.PATCH),
    headers: signedIn,
    caseHeaders: sessionCookie,
    params: fc.record({ siteId }),
    body: fc.record({ name: edge.plausibleText, allowedOrigins: origins }),
  },
  {
    method: 'POST',
    path: '/api/console/keys',
    handler: keys.POST,
    headers: signedIn,
    caseHeaders: sessionCookie,
    body: fc.record({ siteId, name: edge.plausibleText }),
  },
  {
    method: 'DELETE',
    path: '/api/console/keys/{keyId}',
    handler: route(keyById.DELETE),
    headers: signedIn,
    caseHeaders: sessionCookie,
    params: fc.record({ keyId: edge.plausibleText }),
  },
  {
    method: 'POST',
    path: '/api/console/webhooks',
    handler: webhooks.POST,
    headers: signedIn,
    caseHeaders: sessionCookie,
    body: fc.record(
      {
        siteId,
        url: fc.oneof(fc.webUrl(), edge.text),
        format: fc.constantFrom('tessera', 'fingerprint-v4', 'fingerprint', ''),
      },
      { requiredKeys: ['siteId', 'url'] },
    ),
  },
  {
    method: 'POST',
    path: '/api/console/sealing-keys',
    handler: sealingKeys.POST,
    headers: signedIn,
    caseHeaders: sessionCookie,
    body: fc.record({ siteId }),
  },
  {
    method: 'DELETE',
    path: '/api/console/sealing-keys/{keyId}',
    handler: route(sealingKeyById.DELETE),
    headers: signedIn,
    caseHeaders: sessionCookie,
    params: fc.record({ keyId: edge.plausibleText }),
  },
  {
    method: 'GET',
    path: '/api/console/webhooks/{webhookId}',
    handler: route(webhookById.GET),
    headers: signedIn,
    caseHeaders: sessionCookie,
    params: fc.record({ webhookId: edge.plausibleText }),
  },
  {
    method: 'DELETE',
    path: '/api/console/webhooks/{webhookId}',
    handler: route(webhookById.DELETE),
    headers: signedIn,
    caseHeaders: sessionCookie,
    params: fc.record({ webhookId: edge.plausibleText }),
  },
  {
    method: 'PUT',
    path: '/api/console/rules',
    handler: rules.PUT,
    headers: signedIn,
    caseHeaders: sessionCookie,
    body: fc.record(
      {
        botRule: outcome,
        accountLimitRule: outcome,
        maxAccountsPerVisitor: threshold,
        tamperingRule: outcome,
        visitorAttemptsRule: outcome,
        maxAttemptsPerVisitor: threshold,
        ipAttemptsRule: outcome,
        maxAttemptsPerIp: threshold,
        suspectScoreRule: outcome,
        suspectScoreThreshold: threshold,
      },
      { requiredKeys: [] },
    ),
  },
  {
    method: 'GET',
    path: '/api/console/lookup',
    handler: lookup.GET,
    headers: signedIn,
    caseHeaders: sessionCookie,
    query: fc.record({ q: fc.oneof(fc.ipV4(), edge.plausibleText) }),
  },
  {
    method: 'GET',
    path: '/api/console/network',
    handler: network.GET,
    headers: signedIn,
    caseHeaders: sessionCookie,
    query: fc.record({
      q: fc.oneof(
        fc.ipV4(),
        fc.ipV6(),
        fc
          .tuple(fc.oneof(fc.ipV4(), fc.ipV6()), fc.integer({ min: -1, max: 140 }))
          .map(([ip, bits]) => `${ip}/${bits}`),
        edge.plausibleText,
      ),
    }),
  },
  {
    method: 'GET',
    path: '/api/console/events',
    handler: events.GET,
    headers: signedIn,
    caseHeaders: sessionCookie,
    query: fc.record(
      { signal: fc.constantFrom('all', 'bot', 'new', 'returning', 'x'), cursor: edge.text },
      { requiredKeys: [] },
    ),
  },
  {
    method: 'GET',
    path: '/api/console/overview',
    handler: overview.GET,
    headers: signedIn,
    caseHeaders: sessionCookie,
    query: fc.record({ range: fc.constantFrom('24h', '7d', '30d', '1y') }, { requiredKeys: [] }),
  },
  {
    method: 'GET',
    path: '/api/console/decisions',
    handler: decisions.GET,
    headers: signedIn,
    caseHeaders: sessionCookie,
  },
  {
    method: 'DELETE',
    path: '/api/console/visitors/{visitorId}',
    handler: route(visitorById.DELETE),
    headers: signedIn,
    caseHeaders: sessionCookie,
    params: fc.record({ visitorId: edge.plausibleText }),
  },
  {
    method: 'POST',
    path: '/api/console/password',
    handler: password.POST,
    headers: signedIn,
    caseHeaders: sessionCookie,
    body: fc.record({ currentPassword: edge.plausibleText, newPassword: edge.plausibleText }),
  },
  {
    method: 'GET',
    path: '/api/console/session/challenge',
    handler: sessionChallenge.GET,
    query: fc.record({ username: fc.oneof(fc.constant('admin'), edge.plausibleText) }, { requiredKeys: [] }),
  },
  // Last: wrong passwords lock the account (the signed-in session stays valid).
  {
    method: 'POST',
    path: '/api/console/session',
    handler: session.POST,
    body: fc.record(
      { username: fc.oneof(fc.constant('admin'), edge.plausibleText), password: edge.plausibleText },
      { requiredKeys: ['password'] },
    ),
  },
]

describe('fuzz: the console', () => {
  itFuzzesEach(endpoints)
})
