import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Event, isValidWebhookSignature } from '@fingerprint/node-sdk'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { defaultSite } from '../../../tests/support/console-factories'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { openTestDatabase } from '../../../tests/support/test-database'
import { type Database, openDatabase, queryRows } from '../db/client'
import { identifyVisitor } from '../identification/identify-visitor'
import { decideSignup } from '../signup/decide-signup'
import { signupFields } from '../signup/test-signup'
import { createSite } from '../sites/create-site'
import { clearSiteCache } from '../sites/find-site'
import { createWebhook } from './create-webhook'
import { deleteWebhook, purgeDeletedWebhooks, restoreWebhook } from './delete-webhook'
import { deliverDueWebhooks, retryDelaySeconds } from './deliver-due-webhooks'

// These receivers listen on loopback: opt in to private targets, as only tests may (before any
// module reads the environment).
vi.hoisted(() => {
  process.env.TESSERA_WEBHOOK_ALLOW_PRIVATE = '1'
})

interface Received {
  body: string
  signature: string
  fingerprintSignature?: string
  delivery: string
}

/** A local receiver that fails while `failing` is true, then accepts. */
function startReceiver() {
  const received: Received[] = []
  const state = { failing: true }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers['tessera-signature']),
        fingerprintSignature: request.headers['fpjs-event-signature']?.toString(),
        delivery: String(request.headers['tessera-delivery']),
      })
      if (state.failing)
        response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver down for maintenance')
      else response.writeHead(204).end()
    })
  })
  return new Promise<{ url: string; received: Received[]; state: typeof state; server: Server }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}/hook`, received, state, server })
    }),
  )
}

/** What an integrator does: recompute the HMAC over "<t>.<body>" and compare. */
function verify(secret: string, { body, signature }: Received): boolean {
  const parts = Object.fromEntries(signature.split(',').map((part) => part.split('=')))
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex')
  return parts.v1 === expected
}

async function deliveries(db: Database) {
  return queryRows<{ attempts: number; delivered_at: string | null; last_status: number | null }>(
    db,
    sql`select attempts, delivered_at, last_status from webhook_deliveries order by created_at`,
  )
}

describe('webhook delivery', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'tessera-webhooks-'))
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => {
    receiver.server.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it('signs, retries after a 500, survives a restart and delivers each event exactly once', async () => {
    const dataDir = path.join(directory, 'db')
    let handle = await openDatabase({ dataDir })
    const site = await createSite({ db: handle.db, name: 'Shop', allowedOrigins: [] })
    const webhook = await createWebhook({ db: handle.db, siteId: site.id, url: receiver.url })
    const context = { ip: '192.0.2.1', userAgent: 'test' }
    const first = await identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(1), siteKey: site.publicKey },
      context,
    })
    const second = await identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(2), siteKey: site.publicKey },
      context,
    })
    // An event of another site queues nothing for this webhook.
    await identifyVisitor({ db: handle.db, input: { components: syntheticDevice(3) }, context })

    const start = new Date()
    expect(await deliverDueWebhooks({ db: handle.db, now: start })).toBe(2)
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received.every((delivery) => verify(webhook.secret, delivery))).toBe(true)
    expect(receiver.received.some((delivery) => verify('wrong secret', delivery))).toBe(false)
    expect((await deliveries(handle.db)).map((row) => [row.attempts, row.last_status])).toEqual([
      [1, 500],
      [1, 500],
    ])
    // Nothing is due again before the back-off has passed.
    expect(await deliverDueWebhooks({ db: handle.db, now: new Date(start.getTime() + 500) })).toBe(0)

    // The server restarts in the middle of the retries.
    await handle.close()
    handle = await openDatabase({ dataDir })
    receiver.state.failing = false
    const later = new Date(start.getTime() + retryDelaySeconds(1) * 1000 + 1)
    expect(await deliverDueWebhooks({ db: handle.db, now: later })).toBe(2)
    expect(await deliverDueWebhooks({ db: handle.db, now: new Date(later.getTime() + 3_600_000) })).toBe(0)

    const accepted = receiver.received.slice(2)
    expect(accepted).toHaveLength(2)
    const events = accepted.map((delivery) => JSON.parse(delivery.body).event.requestId).sort()
    expect(events).toEqual([first.requestId, second.requestId].sort())
    expect(new Set(accepted.map((delivery) => delivery.delivery)).size).toBe(2)
    expect((await deliveries(handle.db)).every((row) => row.delivered_at && row.attempts === 2)).toBe(true)

    // Each attempt is logged as it went: what was sent, and what came back.
    const logged = await queryRows<{
      status: number
      request_headers: Record<string, string>
      request_body: string
      response_body: string
      error: string | null
    }>(
      handle.db,
      sql`select a.status, a.request_headers, a.request_body, a.response_body, a.error
          from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where d.request_id = ${first.requestId} order by a.attempted_at`,
    )
    expect(logged.map((attempt) => [attempt.status, attempt.response_body, attempt.error])).toEqual([
      [500, 'receiver down for maintenance', 'The receiver answered HTTP 500.'],
      [204, '', null],
    ])
    const sentFirst = receiver.received.find(
      (delivery) => JSON.parse(delivery.body).event.requestId === first.requestId,
    )
    expect(logged[1]?.request_body).toBe(sentFirst?.body)
    expect(logged[1]?.request_headers['tessera-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    await handle.close()
  })

  it.runIf(inject('postgresUrl'))(
    'lets several servers drain one outbox without sending twice (PostgreSQL)',
    async () => {
      const handle = await openTestDatabase('postgres', inject('postgresUrl'))
      try {
        receiver.state.failing = false
        const before = receiver.received.length
        const site = await createSite({ db: handle.db, name: 'Shop', allowedOrigins: [] })
        await createWebhook({ db: handle.db, siteId: site.id, url: receiver.url })
        for (let seed = 10; seed < 40; seed++) {
          await identifyVisitor({
            db: handle.db,
            input: { components: syntheticDevice(seed), siteKey: site.publicKey },
            context: { ip: null, userAgent: null },
          })
        }
        const attempted = await Promise.all([1, 2, 3].map(() => deliverDueWebhooks({ db: handle.db })))
        expect(attempted.reduce((sum, count) => sum + count, 0)).toBe(30)
        await deliverDueWebhooks({ db: handle.db })
        const got = receiver.received.slice(before).map((delivery) => delivery.delivery)
        expect(got).toHaveLength(30)
        expect(new Set(got).size).toBe(30)
      } finally {
        await handle.close()
      }
    },
  )

  it("sends Fingerprint v4's event with a signature the official SDK accepts, through the same outbox", async () => {
    const handle = await openDatabase({ dataDir: 'memory://' })
    try {
      receiver.state.failing = false
      const before = receiver.received.length
      const site = await createSite({ db: handle.db, name: 'Shop', allowedOrigins: [] })
      const webhook = await createWebhook({
        db: handle.db,
        siteId: site.id,
        url: receiver.url,
        format: 'fingerprint-v4',
      })
      const identified = []
      for (const linkedId of ['first', 'second']) {
        identified.push(
          await identifyVisitor({
            db: handle.db,
            input: { components: syntheticDevice(50), siteKey: site.publicKey, linkedId, tag: { n: 1 } },
            context: { ip: '203.0.113.5', userAgent: 'test' },
          }),
        )
      }
      expect(await deliverDueWebhooks({ db: handle.db })).toBe(2)
      const got = receiver.received.slice(before)
      expect(got).toHaveLength(2)
      for (const delivery of got) {
        expect(delivery.signature).toBe('undefined')
        const header = delivery.fingerprintSignature ?? ''
        expect(header).toMatch(/^v1=[0-9a-f]{64}$/)
        const data = Buffer.from(delivery.body)
        expect(isValidWebhookSignature({ header, data, secret: webhook.secret })).toBe(true)
        expect(isValidWebhookSignature({ header, data, secret: 'another secret' })).toBe(false)
        const tampered = Buffer.from(delivery.body.replace('"203.0.113.5"', '"203.0.113.6"'))
        expect(tampered.equals(data)).toBe(false)
        expect(isValidWebhookSignature({ header, data: tampered, secret: webhook.secret })).toBe(false)
      }
      const events = got.map((delivery) => JSON.parse(delivery.body) as Event)
      const byId = new Map(events.map((event) => [event.event_id, event]))
      const [first, second] = identified.map((result) => byId.get(result.requestId))
      expect(first).toMatchObject({ linked_id: 'first', tags: { n: 1 }, ip_address: '203.0.113.5' })
      expect(first?.identification).not.toHaveProperty('last_seen_at')
      expect(second?.identification).toMatchObject({
        visitor_id: identified[0]?.visitorId,
        visitor_found: true,
        first_seen_at: first?.timestamp,
        last_seen_at: first?.timestamp,
      })
      expect(second).not.toHaveProperty('type')
    } finally {
      await handle.close()
    }
  })

  it('sends sign-up decisions to the webhooks that asked for them, and identifications to the others', async () => {
    const handle = await openDatabase({ dataDir: 'memory://' })
    try {
      receiver.state.failing = false
      const before = receiver.received.length
      // Sign-ups are the registration form's, the default site's.
      clearSiteCache()
      const site = await defaultSite(handle.db)
      const decisions = await createWebhook({
        db: handle.db,
        siteId: site.id,
        url: `${receiver.url}?decisions`,
        events: ['signup'],
      })
      await createWebhook({ db: handle.db, siteId: site.id, url: `${receiver.url}?identifications` })
      const ip = '203.0.113.7'
      const identified = await identifyVisitor({
        db: handle.db,
        input: { components: syntheticDevice(60), siteKey: site.publicKey },
        context: { ip, userAgent: 'test' },
      })
      const email = `grace.${Date.now()}@example.com`
      const answer = await decideSignup({
        db: handle.db,
        input: { requestId: identified.requestId, fields: signupFields(email) },
        context: { ip },
      })
      expect(answer.outcome).toBe('allow')
      // One identification for the identifications' webhook, one decision for the decisions' one.
      expect(await deliverDueWebhooks({ db: handle.db })).toBe(2)
      const got = receiver.received.slice(before)
      const signups = got.filter((delivery) => JSON.parse(delivery.body).type === 'signup')
      expect(signups).toHaveLength(1)
      const [signup] = signups
      if (!signup) throw new Error('no sign-up delivery')
      expect(verify(decisions.secret, signup)).toBe(true)
      expect(JSON.parse(signup.body).event).toMatchObject({
        requestId: identified.requestId,
        visitorId: identified.visitorId,
        outcome: 'allow',
        email,
        accountId: expect.stringMatching(/^acct_/),
        reasons: [],
      })
      expect(got.filter((delivery) => JSON.parse(delivery.body).type === 'identification')).toHaveLength(1)
    } finally {
      await handle.close()
    }
  })

  it("holds a deleted webhook's deliveries while it can be restored, then purges it with them", async () => {
    const handle = await openDatabase({ dataDir: 'memory://' })
    try {
      receiver.state.failing = false
      const before = receiver.received.length
      const site = await createSite({ db: handle.db, name: 'Shop', allowedOrigins: [] })
      const webhook = await createWebhook({ db: handle.db, siteId: site.id, url: receiver.url })
      const identifyOne = (seed: number) =>
        identifyVisitor({
          db: handle.db,
          input: { components: syntheticDevice(seed), siteKey: site.publicKey },
          context: { ip: '203.0.113.8', userAgent: 'test' },
        })
      await identifyOne(70)
      await deleteWebhook({ db: handle.db, webhookId: webhook.id })
      // Deleted: what was waiting is held, and nothing new is queued.
      await identifyOne(71)
      expect(await deliverDueWebhooks({ db: handle.db })).toBe(0)
      expect(await restoreWebhook({ db: handle.db, webhookId: webhook.id })).toBe(true)
      expect(await restoreWebhook({ db: handle.db, webhookId: webhook.id })).toBe(false)
      expect(await deliverDueWebhooks({ db: handle.db })).toBe(1)
      expect(receiver.received.length - before).toBe(1)
      // Deleted longer ago than can be undone: gone, with its log.
      await deleteWebhook({ db: handle.db, webhookId: webhook.id })
      await handle.db.execute(sql`update webhooks set deleted_at = deleted_at - interval '6 minutes'`)
      expect(await restoreWebhook({ db: handle.db, webhookId: webhook.id })).toBe(false)
      expect(await purgeDeletedWebhooks(handle.db)).toBe(1)
      const [left] = await queryRows<{ n: number }>(
        handle.db,
        sql`select (select count(*) from webhooks) + (select count(*) from webhook_deliveries) as n`,
      )
      expect(Number(left?.n)).toBe(0)
    } finally {
      await handle.close()
    }
  })

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 10, 20].map(retryDelaySeconds)).toEqual([2, 4, 8, 1024, 3600])
  })
})
