import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { openTestDatabase } from '../../../tests/support/test-database'
import { type DatabaseHandle, queryRows } from '../db/client'
import { identifyVisitor } from '../identification/identify-visitor'
import { createSite } from '../sites/create-site'
import { deliverDueWebhooks } from './deliver-due-webhooks'
import { isPublicAddress, RefusedTarget, resolveTarget, webhookUrlProblem } from './webhook-target'

describe('webhook targets', () => {
  it('tells public unicast addresses from every other range', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true)
    }
    const others = ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.1', '100.100.0.1', '169.254.169.254']
    others.push('0.0.0.0', '224.0.0.251', '255.255.255.255', '192.0.2.1', '::1', '::', 'fe80::1')
    others.push('fd00::1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:7f00:1::1', 'ff02::1', 'not-an-ip')
    for (const address of others) expect(isPublicAddress(address), address).toBe(false)
  })

  it('lets only explicitly allowed tests use private URLs; credentials never', () => {
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', { allowPrivate: false })).toMatch(/public/)
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', { allowPrivate: true })).toBeUndefined()
    expect(webhookUrlProblem('http://u:p@127.0.0.1/hook', { allowPrivate: true })).toMatch(/password/)
    expect(webhookUrlProblem('https://hooks.example/x', { allowPrivate: false })).toBeUndefined()
    expect(webhookUrlProblem('ftp://hooks.example/x', { allowPrivate: false })).toMatch(/http/)
  })

  it('refuses a host name when any address it resolves to is not public', async () => {
    const resolve = async (host: string) =>
      host === 'mixed.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }]
    await expect(resolveTarget('mixed.example', { allowPrivate: false, resolve })).rejects.toBeInstanceOf(
      RefusedTarget,
    )
    expect(await resolveTarget('public.example', { allowPrivate: false, resolve })).toEqual({
      address: '93.184.216.34',
      family: 4,
    })
    // localhost, really resolved.
    await expect(resolveTarget('localhost', { allowPrivate: false })).rejects.toBeInstanceOf(RefusedTarget)
  })
})

describe('webhook delivery to refused targets', () => {
  let handle: DatabaseHandle
  let receiver: Server
  let hits: string[]
  let openPort: number
  let closedPort: number

  beforeAll(async () => {
    handle = await openTestDatabase('pglite', '')
    hits = []
    receiver = createServer((request, response) => {
      hits.push(String(request.headers.host))
      request.resume()
      response.writeHead(204).end()
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    openPort = (receiver.address() as AddressInfo).port
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    closedPort = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
  })
  afterAll(async () => {
    receiver.close()
    await handle.close()
  })

  /** Webhooks written straight to the table, as a row from before URLs were checked would be. */
  async function queueDeliveries(urls: string[]) {
    const site = await createSite({ db: handle.db, name: 'Shop', allowedOrigins: [] })
    for (const [index, url] of urls.entries()) {
      await handle.db.execute(
        sql`insert into webhooks (id, site_id, url, secret) values (${`wh_${site.id}_${index}`}, ${site.id}, ${url}, 's')`,
      )
    }
    await identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(urls.length), siteKey: site.publicKey },
      context: { ip: null, userAgent: null },
    })
    return site.id
  }

  async function log(siteId: string) {
    return queryRows<{ url: string; last_status: number | null; last_error: string | null }>(
      handle.db,
      sql`select w.url, d.last_status, d.last_error from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where w.site_id = ${siteId} order by w.id`,
    )
  }

  it('refuses loopback targets without the opt-in, and logs open and closed ports alike', async () => {
    // hooks.example resolving to loopback is a DNS answer an attacker controls.
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }]
    const siteId = await queueDeliveries([
      `http://localhost:${openPort}/hook`,
      `http://localhost:${closedPort}/hook`,
      `http://127.0.0.1:${openPort}/hook`,
      `http://hooks.example:${openPort}/hook`,
      `http://hooks.example:${closedPort}/hook`,
    ])
    expect(await deliverDueWebhooks({ db: handle.db, allowPrivate: false, resolve })).toBe(5)
    expect(hits).toEqual([])
    const rows = await log(siteId)
    expect(rows).toHaveLength(5)
    expect(new Set(rows.map((row) => JSON.stringify([row.last_status, row.last_error]))).size).toBe(1)
    expect(rows[0]?.last_status).toBeNull()
    expect(rows[0]?.last_error).toMatch(/^Refused: /)
  })

  it('with the opt-in, connects to the checked address and keeps the Host header', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }]
    const siteId = await queueDeliveries([`http://receiver.test:${openPort}/hook`])
    expect(await deliverDueWebhooks({ db: handle.db, allowPrivate: true, resolve })).toBe(1)
    expect(hits).toEqual([`receiver.test:${openPort}`])
    expect((await log(siteId))[0]?.last_status).toBe(204)
  })
})
