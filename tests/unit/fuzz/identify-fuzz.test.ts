import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { GET as exportDevice } from '@/app/api/v1/device/export/route'
import { DELETE as forgetDevice, GET as readDevice } from '@/app/api/v1/device/route'
import { POST as identify } from '@/app/api/v1/identify/route'
import { GET as nonce } from '@/app/api/v1/nonce/route'
import { componentShapes } from '@/contracts/components'
import { getDb } from '@/server/db/client'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { syntheticDevice } from '../../support/synthetic-devices'
import {
  changeCount,
  edge,
  type FuzzEndpoint,
  headerSafe,
  installChangeCounter,
  itFuzzesEach,
} from './fuzz-harness'

const componentName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,20}$/)
const componentResult = fc.oneof(
  fc.record({ value: edge.value, duration: fc.nat() }),
  fc.record({ error: edge.text, duration: edge.number }),
)

/** The agent's own signal names, given values of any shape (the shape check's input). */
const agentComponents = fc.dictionary(
  fc.constantFrom(...Object.keys(componentShapes)),
  fc.oneof(componentResult, fc.record({ value: fc.jsonValue({ maxDepth: 3 }), duration: fc.nat() })),
  { maxKeys: 6 },
)

let nonces: string[] = []

/** A real device's payload with a few extra or replaced components, and the optional fields. */
const identifyBody = fc.record(
  {
    components: fc
      .tuple(
        fc.nat(1_000_000),
        fc.dictionary(componentName, componentResult, { maxKeys: 2 }),
        agentComponents,
        fc.constantFrom('plain', 'extra', 'reshaped', 'only junk'),
      )
      .map(([seed, extra, reshaped, mix]) =>
        mix === 'plain'
          ? syntheticDevice(seed)
          : mix === 'extra'
            ? { ...syntheticDevice(seed), ...extra }
            : mix === 'reshaped'
              ? { ...syntheticDevice(seed), ...reshaped }
              : { ...extra, ...reshaped },
      ),
    nonce: fc.oneof(
      edge.plausibleText,
      fc.nat().map((index) => nonces[index % nonces.length] ?? ''),
    ),
    url: fc.oneof(fc.webUrl(), edge.text),
    tag: fc.oneof(
      fc.dictionary(edge.plausibleText, fc.jsonValue({ maxDepth: 2 })),
      fc.dictionary(edge.text, edge.value, { maxKeys: 3 }),
    ),
    linkedId: edge.plausibleText,
    storedToken: edge.plausibleText,
  },
  { requiredKeys: ['components'] },
)

let tokens: string[] = []

/** A visitor cookie: a real token, a damaged one, or junk. */
const visitorCookie = fc
  .oneof(
    fc.nat().map((index) => tokens[index % tokens.length] ?? ''),
    fc.tuple(fc.nat(), fc.nat(), edge.text).map(([index, at, junk]) => {
      const token = tokens[index % tokens.length] ?? ''
      return `${token.slice(0, at % (token.length + 1))}${junk}`
    }),
    edge.text,
  )
  .map((token) => ({ cookie: `tessera_vid=${headerSafe(token)}` }))

beforeAll(async () => {
  await ensureDefaultSite({ db: await getDb(), origins: [] })
  for (let seed = 0; seed < 5; seed++) {
    const response = await identify(
      new Request('http://127.0.0.1:3000/api/v1/identify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ components: syntheticDevice(seed) }),
      }),
    )
    tokens = [...tokens, (await response.json()).storedToken]
    const issued = await nonce(new Request('http://127.0.0.1:3000/api/v1/nonce'))
    nonces = [...nonces, (await issued.json()).nonce]
  }
})

const endpoints: FuzzEndpoint[] = [
  {
    method: 'POST',
    path: '/api/v1/identify',
    handler: identify,
    body: identifyBody,
    caseHeaders: visitorCookie,
  },
  {
    method: 'GET',
    path: '/api/v1/nonce',
    handler: nonce,
    query: fc.record(
      { siteKey: fc.oneof(edge.plausibleText, fc.constant('pk_unknown')) },
      { requiredKeys: [] },
    ),
  },
  { method: 'GET', path: '/api/v1/device', handler: readDevice, caseHeaders: visitorCookie },
  { method: 'GET', path: '/api/v1/device/export', handler: exportDevice, caseHeaders: visitorCookie },
  { method: 'DELETE', path: '/api/v1/device', handler: forgetDevice, caseHeaders: visitorCookie },
]

describe('fuzz: the agent and device endpoints', () => {
  it('counts a stored identification as a change (the refusal check is not vacuous)', async () => {
    const db = await getDb()
    await installChangeCounter(db)
    const before = await changeCount(db)
    const response = await identify(
      new Request('http://127.0.0.1:3000/api/v1/identify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ components: syntheticDevice(99) }),
      }),
    )
    expect(response.status).toBe(200)
    expect(await changeCount(db)).not.toBe(before)
  })

  itFuzzesEach(endpoints)
})
