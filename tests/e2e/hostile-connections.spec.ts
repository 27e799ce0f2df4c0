import { connect } from 'node:net'
import { expect, test } from '@playwright/test'

// Issue #15, items 10 and 14, through the real production front (scripts/serve.mjs).
const port = Number(process.env.TESSERA_E2E_PORT ?? 3100)

interface Exchange {
  received: string
  ending: 'end' | 'reset' | 'open'
  /** Milliseconds from the first byte sent to the end of the connection. */
  elapsed: number
}

/** Writes `head`, then body bytes every few ms up to `bodyBytes`, and waits for the server to end. */
function exchange(head: string, bodyBytes: number, deadlineMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const started = Date.now()
    let received = ''
    let sent = 0
    const finish = (ending: Exchange['ending']) => {
      clearInterval(writer)
      clearTimeout(deadline)
      socket.destroy()
      resolve({ received, ending, elapsed: Date.now() - started })
    }
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.once('end', () => finish('end'))
    socket.once('error', () => finish('reset'))
    const deadline = setTimeout(() => finish('open'), deadlineMs)
    socket.write(head)
    const writer = setInterval(() => {
      if (sent >= bodyBytes || !socket.writable) return
      const chunk = 'x'.repeat(Math.min(16_384, bodyBytes - sent))
      sent += chunk.length
      socket.write(chunk)
    }, 2)
  })
}

const identifyHead = (length: number) =>
  `POST /api/v1/identify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

test('a 413 arrives intact with Connection: close, then the connection closes cleanly', async () => {
  const { received, ending } = await exchange(identifyHead(8_000_000), 8_000_000, 10_000)
  expect(received).toMatch(/^HTTP\/1\.1 413 /)
  expect(received).toMatch(/\r\nconnection: close\r\n/i)
  expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error.code).toBe('payload_too_large')
  expect(ending).toBe('end')
})

test('a client that sends half a body and stalls is cut off within 15 s (not 300 s)', async () => {
  test.setTimeout(40_000)
  const { received, ending, elapsed } = await exchange(identifyHead(2_000), 1_000, 30_000)
  expect(ending).not.toBe('open')
  expect(elapsed).toBeGreaterThan(14_000)
  expect(elapsed).toBeLessThan(18_000)
  // Node.js says why before it closes, when it can.
  if (received) expect(received).toMatch(/^HTTP\/1\.1 408 /)
})

test('a keep-alive connection still serves a request after a pause', async ({ request }) => {
  const first = await request.get('/api/health')
  expect(first.status()).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  expect((await request.get('/api/health')).status()).toBe(200)
})

test('a path with invalid %-encoding is a 400 with the JSON error shape, before authentication', async ({
  request,
}) => {
  for (const path of ['/api/v1/events/%E0%A4%A', '/api/v1/visitors/%zz', '/api/console/keys/%C0%80']) {
    const response = await request.get(path)
    expect(response.status(), path).toBe(400)
    expect((await response.json()).error.code).toBe('invalid_request')
  }
})

test('/frame with a NUL in its site key is a frame for an unknown site, not a 500', async ({ request }) => {
  const response = await request.get('/frame?siteKey=a%00b')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'self'")
})
