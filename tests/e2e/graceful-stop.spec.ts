import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import pg from 'pg'
import { ADMIN_PASSWORD, EXTRA_SERVER_PORTS } from '../support/e2e-constants'
import { rawRequest } from '../support/raw-http'
import { syntheticDevice } from '../support/synthetic-devices'
import { removeServerFiles, startTesseraServer } from '../support/tessera-server'
import { findPostgresBin, startThrowawayPostgres } from '../support/throwaway-postgres'

// Stopping the production server (SIGTERM from a deploy or a supervisor, Ctrl+C): the requests in
// flight are answered and stored, no new connection is taken, the database is closed, and the
// process exits 0 (scripts/serve.mjs).
const bin = findPostgresBin()

const identify = (port: number, seed: number, linkedId: string) =>
  rawRequest({
    port,
    path: '/api/v1/identify',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ components: syntheticDevice(seed), linkedId }),
  })

const logLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string })

test('an identification in flight when the server is told to stop is answered and stored; new connections are refused', async () => {
  test.skip(!bin, 'needs the PostgreSQL server binaries (npm test installs them)')
  test.setTimeout(90_000)
  if (!bin) return
  const postgres = startThrowawayPostgres({ bin, port: EXTRA_SERVER_PORTS.gracefulStopPostgres })
  const port = EXTRA_SERVER_PORTS.gracefulStop
  const server = await startTesseraServer({
    port,
    env: { DATABASE_URL: postgres.url, TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
  const holder = new pg.Client({ connectionString: postgres.url })
  await holder.connect()
  try {
    // Hold the events table: the identification's write waits for it, as on a busy database.
    await holder.query('begin')
    await holder.query('lock table events in exclusive mode')
    const inFlight = identify(port, 93_100, 'in-flight')
    const deadline = Date.now() + 20_000
    while (Date.now() < deadline) {
      const { rows } = await holder.query<{ n: number }>(
        'select count(*)::int as n from pg_locks where not granted',
      )
      if ((rows[0]?.n ?? 0) >= 1) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }

    process.kill(server.pid, 'SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 500))
    // Stopping: the listening socket is closed, so a load balancer sends the next request elsewhere.
    await expect(identify(port, 93_101, 'after-stop')).rejects.toThrow(/ECONNREFUSED/)
    expect(server.pid).toBeGreaterThan(0)

    await holder.query('rollback')
    const answer = await inFlight
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).visitorId).toMatch(/\S/)
    expect(await server.exited).toBe(0)

    const { rows } = await holder.query<{ linked: string }>(
      'select linked_id as linked from events where linked_id is not null',
    )
    expect(rows.map((row) => row.linked)).toEqual(['in-flight'])
    const messages = logLines(server.logFile).map((line) => line.msg)
    expect(messages).toContain('stopping: finishing the requests in flight')
    expect(messages).toContain('stopped')
  } finally {
    await holder.end().catch(() => undefined)
    await server.stop()
    removeServerFiles(server)
    postgres.stop()
  }
})

test('on the embedded database, a stopped server exits 0 and the next start on its files knows the device', async () => {
  test.setTimeout(120_000)
  const port = EXTRA_SERVER_PORTS.gracefulStopEmbedded
  const first = await startTesseraServer({ port, env: { TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD } })
  let second: Awaited<ReturnType<typeof startTesseraServer>> | undefined
  try {
    const before = await identify(port, 93_200, 'embedded')
    expect(before.status).toBe(200)
    const { visitorId } = JSON.parse(before.body) as { visitorId: string }

    process.kill(first.pid, 'SIGINT')
    expect(await first.exited).toBe(0)
    expect(logLines(first.logFile).map((line) => line.msg)).toContain('stopped')

    // The data directory was released and its files written out: a new server opens them at once.
    second = await startTesseraServer({
      port,
      dataDir: first.dataDir,
      env: { TESSERA_ADMIN_PASSWORD: ADMIN_PASSWORD },
    })
    const after = await identify(port, 93_200, 'embedded')
    expect(after.status).toBe(200)
    expect(JSON.parse(after.body)).toMatchObject({ visitorId, visitorFound: true })
  } finally {
    await second?.stop()
    await first.stop()
    removeServerFiles(first)
  }
})
