import { Agent } from 'node:http'
import { expect, test } from '@playwright/test'
import { EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { rawRequest } from '../support/raw-http'
import { syntheticDevice } from '../support/synthetic-devices'
import { type RunningServer, removeServerFiles, startTesseraServer } from '../support/tessera-server'

// Issue #27, item 9: admission control on identify. One address's burst is refused beyond its
// share, cheaply and with Retry-After, while other clients and the health check are answered.
// A server of its own, with a small rate budget (2 calls per address per second) so that the
// budget is reached by one client calling in turn; every client is its own loopback address.
const port = EXTRA_SERVER_PORTS.admission
let server: RunningServer | undefined

test.beforeAll(async () => {
  test.setTimeout(90_000)
  server = await startTesseraServer({ port, env: { TESSERA_IDENTIFY_RATE_LIMIT: '2' } })
})

test.afterAll(async () => {
  await server?.stop()
  if (server) removeServerFiles(server)
})

const identify = (localAddress: string, seed: number) =>
  rawRequest({
    port,
    path: '/api/v1/identify',
    method: 'POST',
    localAddress,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ components: syntheticDevice(seed), url: 'https://shop.example/' }),
  })

test('a burst from one address gets 429 with Retry-After past its share; others are answered', async () => {
  test.setTimeout(60_000)
  // A load balancer's health probe keeps its connection open. (New connections during a flood of
  // connections wait in the kernel's backlog: Node.js accepts one per turn of its event loop.)
  const probe = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.2.3' })
  expect((await rawRequest({ port, path: '/api/health', agent: probe })).status).toBe(200)
  const burst = Promise.all(Array.from({ length: 400 }, (_, index) => identify('127.0.2.1', 93_000 + index)))
  // While the burst is in: another client, and the health check.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const [other, health] = await Promise.all([
    identify('127.0.2.2', 93_900),
    rawRequest({ port, path: '/api/health', agent: probe }),
  ])
  const answers = await burst
  probe.destroy()
  expect(other.status).toBe(200)
  expect(health.status).toBe(200)
  expect(health.elapsed).toBeLessThan(1_000)
  // Generous for a shared test machine: bench:flood measures the others' latency properly.
  expect(other.elapsed).toBeLessThan(5_000)

  const statuses = new Set(answers.map((answer) => answer.status))
  expect([...statuses].filter((status) => status !== 200 && status !== 429)).toEqual([])
  const admitted = answers.filter((answer) => answer.status === 200)
  // At most the address's budget of 2 a second is identified while the burst lasts (a few seconds
  // on a slow machine); the rest is refused at once.
  expect(admitted.length).toBeLessThanOrEqual(20)
  const refused = answers.filter((answer) => answer.status === 429)
  expect(refused.length).toBeGreaterThanOrEqual(380)
  for (const answer of refused) {
    expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(JSON.parse(answer.body).error.code).toBe('rate_limited')
  }
})

test('one address has a rate budget: past it, 429 with the seconds to wait', async () => {
  test.setTimeout(60_000)
  // One call at a time: never more than one in flight, so only the budget can refuse.
  let refusal: Awaited<ReturnType<typeof identify>> | undefined
  for (let call = 0; call < 30 && !refusal; call++) {
    const answer = await identify('127.0.2.4', 94_000 + call)
    if (answer.status === 429) refusal = answer
    else expect(answer.status).toBe(200)
  }
  expect(refusal).toBeDefined()
  expect(JSON.parse(refusal?.body ?? '{}').error.message).toMatch(/try again in 1 s/)
  expect(refusal?.headers['retry-after']).toBe('1')
  // Another address is not affected.
  expect((await identify('127.0.2.5', 94_999)).status).toBe(200)
})
