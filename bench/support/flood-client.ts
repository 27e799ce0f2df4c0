// The flood of bench:flood, in a process of its own so that its event loop never delays the
// measuring clients': `calls` identify calls spread evenly over `seconds`, all from one loopback
// address, sent on schedule whatever the answers (an attacker does not wait), each given up after
// `timeoutMs` (the client hangs up, as a script with a time-out does).
// Usage: tsx bench/support/flood-client.ts '<json options>'; prints one JSON line of counts.
import { Agent, request } from 'node:http'
import { syntheticDevice } from '../../tests/support/synthetic-devices'

interface FloodOptions {
  port: number
  localAddress: string
  calls: number
  seconds: number
  timeoutMs: number
  /** One device over and over (the audit's flood), or a new device per call. */
  distinct: boolean
}

const options = JSON.parse(process.argv[2] ?? '{}') as FloodOptions
const agent = new Agent({ keepAlive: true, maxSockets: 256, localAddress: options.localAddress })
const identical = JSON.stringify({ components: syntheticDevice(77_000_001), url: 'https://flood.example/' })
const statuses: Record<string, number> = {}
const count = (outcome: string) => {
  statuses[outcome] = (statuses[outcome] ?? 0) + 1
}

function send(index: number): Promise<void> {
  const body = options.distinct
    ? JSON.stringify({ components: syntheticDevice(78_000_000 + index), url: 'https://flood.example/' })
    : identical
  return new Promise((resolve) => {
    let settled = false
    /** The first outcome of a call is its outcome (a time-out's destroy also ends in an error). */
    const settle = (outcome: string) => {
      if (settled) return
      settled = true
      count(outcome)
      resolve()
    }
    const outgoing = request({
      host: '127.0.0.1',
      port: options.port,
      path: '/api/v1/identify',
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: options.timeoutMs,
    })
    outgoing.once('timeout', () => {
      settle('timeout')
      outgoing.destroy()
    })
    outgoing.once('error', () => settle('error'))
    outgoing.once('response', (response) => {
      response.resume()
      response.once('end', () => settle(String(response.statusCode)))
      response.once('error', () => settle('error'))
    })
    outgoing.end(body)
  })
}

const started = performance.now()
const pending: Promise<void>[] = []
const tickMs = 10
for (let sent = 0; sent < options.calls; ) {
  // Catch up with the schedule (timers run late on a busy machine).
  const due = Math.min(
    options.calls,
    Math.ceil(((performance.now() - started) / (options.seconds * 1000)) * options.calls),
  )
  for (; sent < due; sent++) pending.push(send(sent))
  await new Promise((resolve) => setTimeout(resolve, tickMs))
}
const sendingMs = performance.now() - started
await Promise.all(pending)
agent.destroy()
console.log(JSON.stringify({ sendingMs, doneMs: performance.now() - started, statuses }))
