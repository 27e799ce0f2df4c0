import { connect } from 'node:net'
import { expect, test } from '@playwright/test'
import pg from 'pg'
import { ADMIN_PASSWORD, EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { rawRequest } from '../support/raw-http'
import { syntheticDevice } from '../support/synthetic-devices'
import { type RunningServer, removeServerFiles, startTesseraServer } from '../support/tessera-server'
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../support/throwaway-postgres'

// Issue #27, item 19: an identification whose client hung up while it waited for its batch is
// dropped, not stored for nobody (a flood of calls that time out must not keep the server busy).
// The server runs on PostgreSQL so that the test can hold the events table: the batch in front
// then waits at the database, and the requests behind it wait, as they do on a busy server.
const port = EXTRA_SERVER_PORTS.hungUp
const bin = findPostgresBin()
let postgres: ThrowawayPostgres | undefined
let server: RunningServer | undefined

test.skip(!bin, 'needs the PostgreSQL server binaries (npm test installs them)')

test.beforeAll(async () => {
  test.setTimeout(90_000)
  if (!bin) return
  postgres = startThrowawayPostgres({ bin, port: EXTRA_SERVER_PORTS.hungUpPostgres })
  server = await startTesseraServer({
    port,
    env: { DATABASE_URL: postgres.url, TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
})

test.afterAll(async () => {
  await server?.stop()
  if (server) removeServerFiles(server)
  postgres?.stop()
})

const identifyHead = (body: string) =>
  `POST /api/v1/identify HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

/** Sends a whole identify request from its own loopback address; `hangUp` closes the connection. */
function sendThenWait(localAddress: string, body: string) {
  let answer = ''
  const socket = connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(identifyHead(body)))
  socket.on('data', (chunk) => {
    answer += chunk
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return {
    hangUp: async () => {
      socket.destroy()
      await closed
    },
    answered: () => answer,
  }
}

async function waitForLockWaiters(client: pg.Client, count: number) {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_locks where not granted',
    )
    if ((rows[0]?.n ?? 0) >= count) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('No identification is waiting for the held table')
}

test('100 identifications whose clients hung up while they waited are not stored', async () => {
  test.setTimeout(60_000)
  const run = Date.now().toString(36)
  const holder = new pg.Client({ connectionString: postgres?.url })
  await holder.connect()
  try {
    // Hold the events table: the next batch's write waits for it.
    await holder.query('begin')
    await holder.query('lock table events in exclusive mode')
    const stayed = `stayed-${run}`
    const first = rawRequest({
      port,
      path: '/api/v1/identify',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ components: syntheticDevice(92_500), linkedId: stayed }),
    })
    await waitForLockWaiters(holder, 1)

    // 100 clients send whole requests while that batch waits, then hang up.
    const hungUp = `hung-up-${run}`
    const clients = Array.from({ length: 100 }, (_, index) =>
      sendThenWait(
        `127.0.1.${index + 1}`,
        JSON.stringify({ components: syntheticDevice(92_000 + index), linkedId: hungUp }),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await Promise.all(clients.map((client) => client.hangUp()))
    expect(clients.map((client) => client.answered())).toEqual(Array(100).fill(''))
    await new Promise((resolve) => setTimeout(resolve, 500))
    await holder.query('rollback')
    expect((await first).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 1_000))

    const linked = async (linkedId: string) =>
      (
        await holder.query<{ n: number }>('select count(*)::int as n from events where linked_id = $1', [
          linkedId,
        ])
      ).rows[0]?.n
    expect(await linked(stayed)).toBe(1)
    expect(await linked(hungUp)).toBe(0)
  } finally {
    await holder.end()
  }
})
