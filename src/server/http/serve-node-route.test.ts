import { Agent, createServer, request as httpRequest, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { getDb, queryRows } from '../db/client'
import { ensureDefaultSite } from '../sites/ensure-default-site'
import { serveNodeRoute } from './serve-node-route'

let server: Server
let origin: string

beforeAll(async () => {
  await ensureDefaultSite({ db: await getDb(), origins: [] })
  // Like scripts/serve.mjs: X-Forwarded-For is rewritten to the socket address, then Next.js
  // (here a plain 404) answers whatever the node routes do not.
  server = createServer((request, response) => {
    request.headers['x-forwarded-for'] = request.socket.remoteAddress ?? ''
    if (!serveNodeRoute(request, response)) response.writeHead(404).end('next')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise((resolve) => server.close(resolve)))

async function eventCount() {
  const [row] = await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from events`)
  return row?.n ?? 0
}

/** Sends a body in chunks without Content-Length, as a client streaming it would. */
function postChunked(path: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    })
    outgoing.on('response', (response) => {
      let body = ''
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    outgoing.on('error', reject)
    for (const chunk of chunks) outgoing.write(chunk)
    outgoing.end()
  })
}

/** One POST through a given agent; tells which local socket port carried it. */
function send(agent: Agent, contentType: string, body: string) {
  return new Promise<{ status: number; body: string; socket: number | undefined }>((resolve, reject) => {
    const outgoing = httpRequest(`${origin}/api/v1/identify`, {
      method: 'POST',
      agent,
      headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body) },
    })
    outgoing.on('response', (response) => {
      let text = ''
      response.on('data', (chunk) => {
        text += chunk
      })
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: text, socket: outgoing.socket?.localPort }),
      )
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

describe('serveNodeRoute (POST /api/v1/identify ahead of Next.js)', () => {
  it('answers like the Next.js route, with the security headers Next.js would add', async () => {
    const response = await fetch(`${origin}/api/v1/identify?from=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ components: syntheticDevice(41), url: 'https://shop.example/' }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^tessera_vid=v2\..+HttpOnly/)])
    const body = await response.json()
    expect(body.visitorFound).toBe(false)

    // The stored address is the socket's: the client's own X-Forwarded-For was replaced.
    const [event] = await queryRows<{ ip: string; url: string }>(
      await getDb(),
      sql`select ip, url from events where request_id = ${body.requestId}`,
    )
    expect(event).toEqual({ ip: '127.0.0.1', url: 'https://shop.example/' })

    const again = await fetch(`${origin}/api/v1/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `tessera_vid=${body.storedToken}` },
      body: JSON.stringify({ components: syntheticDevice(41) }),
    })
    expect(await again.json()).toMatchObject({ visitorId: body.visitorId, visitorFound: true })
  })

  it('refuses a streamed body over the size limit with 413 and stores nothing', async () => {
    const before = await eventCount()
    const chunk = `{"components":{"big":{"value":"${'x'.repeat(40_000)}`
    const answer = await postChunked('/api/v1/identify', [chunk, 'y'.repeat(40_000), '","duration":1}}}'])
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error.code).toBe('payload_too_large')
    expect(await eventCount()).toBe(before)
  })

  it('refuses malformed JSON with 400 and stores nothing', async () => {
    const before = await eventCount()
    const answer = await postChunked('/api/v1/identify', ['{"components": '])
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error.code).toBe('invalid_json')
    expect(await eventCount()).toBe(before)
  })

  it('refuses a form body with 415, and the same connection serves the next request', async () => {
    const before = await eventCount()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const refused = await send(agent, 'application/x-www-form-urlencoded', `components=${'x'.repeat(20_000)}`)
    expect(refused.status).toBe(415)
    expect(JSON.parse(refused.body).error.code).toBe('unsupported_media_type')
    const accepted = await send(
      agent,
      'application/json',
      JSON.stringify({ components: syntheticDevice(42) }),
    )
    expect(accepted.status).toBe(200)
    expect(refused.socket).toBe(accepted.socket)
    expect(await eventCount()).toBe(before + 1)
    agent.destroy()
  })

  it('leaves every other method and path to Next.js', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/identify'],
      ['POST', '/api/v1/identify/extra'],
      ['POST', '/api/v1/identifyx'],
      ['POST', '/api/v1/events'],
    ] as const) {
      const response = await fetch(`${origin}${path}`, { method, body: method === 'POST' ? '{}' : undefined })
      expect(await response.text(), `${method} ${path}`).toBe('next')
    }
  })
})

interface RawExchange {
  /** Everything the server sent, as text. */
  received: string
  /** How the connection ended at the client: the server's FIN, a reset, or still open at the deadline. */
  ending: 'end' | 'reset' | 'open'
}

/**
 * A POST written by hand on a raw socket: the head, then body bytes every few milliseconds until the
 * server's answer ends with its FIN (or up to `bodyBytes`), as an uploading client would.
 */
function rawPost(head: string, bodyBytes: number, chunked = false): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(origin).port), '127.0.0.1')
    let received = ''
    let sent = 0
    let settled = false
    const finish = (ending: RawExchange['ending']) => {
      if (settled) return
      settled = true
      clearInterval(writer)
      clearTimeout(deadline)
      socket.destroy()
      resolve({ received, ending })
    }
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.on('end', () => finish('end'))
    socket.on('error', () => finish('reset'))
    const deadline = setTimeout(() => finish('open'), 5_000)
    socket.write(head)
    const writer = setInterval(() => {
      if (sent >= bodyBytes || !socket.writable) return
      const chunk = 'x'.repeat(Math.min(16_384, bodyBytes - sent))
      sent += chunk.length
      socket.write(chunked ? `${chunk.length.toString(16)}\r\n${chunk}\r\n` : chunk)
    }, 2)
  })
}

describe('serveNodeRoute when the body is not read to its end', () => {
  const head = (length: string) =>
    `POST /api/v1/identify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${length}\r\n\r\n`

  it('answers a declared oversized body with an intact 413 and Connection: close, then closes cleanly', async () => {
    const { received, ending } = await rawPost(head('Content-Length: 4000000'), 4_000_000)
    expect(received).toMatch(/^HTTP\/1\.1 413 /)
    expect(received).toMatch(/\r\nconnection: close\r\n/i)
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error.code).toBe('payload_too_large')
    expect(ending).toBe('end')
  })

  it('answers a body that outgrows the limit while streaming the same way, not with a reset', async () => {
    // No length declared: the limit is found while reading.
    const { received, ending } = await rawPost(head('Transfer-Encoding: chunked'), 4_000_000, true)
    expect(received).toMatch(/^HTTP\/1\.1 413 /)
    expect(received).toMatch(/\r\nconnection: close\r\n/i)
    expect(ending).toBe('end')
  })
})

describe('serveNodeRoute ahead of Next.js for a path with invalid %-encoding', () => {
  it('answers 400 with the JSON error shape instead of handing it to Next.js', async () => {
    for (const path of [
      '/api/v1/events/%E0%A4%A',
      '/api/v1/visitors/%zz',
      '/api/console/keys/%C0%80',
      '/%',
    ]) {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, path).toBe(400)
      expect((await response.json()).error.code).toBe('invalid_request')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
    // A browser opening a screen's address gets a page saying what is wrong; an API path stays JSON.
    const page = await fetch(`${origin}/registration%E0%A4%A`, { headers: { accept: 'text/html,*/*' } })
    expect(page.status).toBe(400)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<a href="/">Open Tessera')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(page.headers.get('vary')).toBe('Accept')
    const api = await fetch(`${origin}/api/v1/events/%zz`, { headers: { accept: 'text/html,*/*' } })
    expect(api.headers.get('content-type')).toMatch(/^application\/json/)
    // A valid encoding, and an invalid one in the query only (Next.js reads queries leniently), pass on.
    for (const path of ['/api/v1/events/%F0%9F%98%80', '/api/v1/events?x=%zz']) {
      expect(await (await fetch(`${origin}${path}`)).text(), path).toBe('next')
    }
  })
})

describe('serveNodeRoute (GET /api/v1/nonce, the agent’s proof, ahead of Next.js)', () => {
  it('issues a nonce that proves the identify call made with it, once', async () => {
    const headers = { 'user-agent': 'Mozilla/5.0 NodeRouteTest' }
    const issued = await fetch(`${origin}/api/v1/nonce`, { headers })
    expect(issued.status).toBe(200)
    expect(issued.headers.get('cache-control')).toBe('no-store')
    const { nonce } = (await issued.json()) as { nonce: string }
    const identify = () =>
      fetch(`${origin}/api/v1/identify`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ components: syntheticDevice(31), nonce }),
      }).then((response) => response.json())
    expect((await identify()).signals.agentProof.result).toBe('valid')
    expect((await identify()).signals.agentProof.result).toBe('reused')
  })

  it('binds a nonce to the user agent as identify reads it, however long the header', async () => {
    // Past the 1 024 characters the signals read (request-evidence.ts): both ends cut it alike.
    const headers = { 'user-agent': `Mozilla/5.0 Version/${'1'.repeat(3000)}` }
    const { nonce } = (await (await fetch(`${origin}/api/v1/nonce`, { headers })).json()) as { nonce: string }
    const identified = await fetch(`${origin}/api/v1/identify`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ components: syntheticDevice(32), nonce }),
    }).then((response) => response.json())
    expect(identified.signals.agentProof.result).toBe('valid')
  })
})
