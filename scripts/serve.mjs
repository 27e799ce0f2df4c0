// Tessera's production HTTP server: Next.js behind a thin node:http front that owns
// X-Forwarded-For. `next start` passes a client-sent X-Forwarded-For through unchanged, so any
// caller could pick its own IP; here only the entries added by TESSERA_TRUSTED_PROXIES
// proxies are kept, followed by the address of the socket itself, and the public paths of
// first-party serving (TESSERA_AGENT_PATH, TESSERA_API_PREFIX) become the canonical ones
// (prepareRequest in src/server/http/serve-node-route.ts). The agent's hot path
// (POST /api/v1/identify) is answered here directly, with the same handler as its Next.js
// route (src/server/http/serve-node-route.ts, built by scripts/build-server.mjs).
import { createServer } from 'node:http'
import nextEnv from '@next/env'
import next from 'next'

// .env (and .env.production, .env.local) as Next.js reads them, before the port and address are
// read here: set in .env they would otherwise be seen by the app but not by this front. Variables
// already in the environment win, as in Next.js.
nextEnv.loadEnvConfig(process.cwd(), false, { info() {}, error: console.error })

const port = Number(process.env.PORT ?? 3000)
const hostname = process.env.TESSERA_HOST ?? '0.0.0.0'

const app = next({ dev: false, hostname, port })
const handle = app.getRequestHandler()
await app.prepare()
const { closeDatabase, noteConnection, prepareRequest, serveNodeRoute, whenTesseraReady } = await import(
  '../dist/server/serve-node-route.mjs'
)
// Next.js runs start-up (src/instrumentation.ts) without waiting for it: listen once it is done.
await whenTesseraReady()

// A client that stalls must not hold a connection for Node's default 300 s: the whole request
// (head and body; a 64 KB body at most) must arrive within 15 s, its head within 10 s. Only the
// request is timed, so a slow answer (or a long poll) is not cut off. Checked every second.
const timeouts = { requestTimeout: 15_000, headersTimeout: 10_000, connectionsCheckingInterval: 1_000 }

const server = createServer(timeouts, (request, response) => {
  prepareRequest(request)
  if (!serveNodeRoute(request, response)) handle(request, response)
})
  // Counted so that identification lets waiting connections in between its batches
  // (src/server/http/connection-turns.ts).
  .on('connection', noteConnection)
  .listen(port, hostname, () => logLine(`Tessera listening on http://${hostname}:${port}`))

function logLine(msg, fields = {}) {
  console.log(JSON.stringify({ level: 30, time: new Date().toISOString(), ...fields, msg }))
}

// Stopping (SIGTERM from a deploy or a supervisor, Ctrl+C): no new connection is taken, the
// requests in flight are answered (identifications waiting for their batch are written first), idle
// keep-alive connections are closed as they come free, then the database is closed (PGlite writes
// its files out and releases the data directory) and the process exits 0. Requests still running
// after DRAIN_MS have their connections cut; a second signal exits at once.
const DRAIN_MS = 10_000
let stopping = false
function stop(signal) {
  if (stopping) {
    logLine('second signal while stopping: exiting now', { signal })
    process.exit(1)
  }
  stopping = true
  const started = Date.now()
  logLine('stopping: finishing the requests in flight', { signal, drainMs: DRAIN_MS })
  const idle = setInterval(() => server.closeIdleConnections(), 50)
  const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS)
  server.close(async () => {
    clearInterval(idle)
    clearTimeout(cut)
    let code = 0
    try {
      await closeDatabase()
    } catch (error) {
      code = 1
      console.error(error)
    }
    logLine('stopped', { ms: Date.now() - started })
    process.exit(code)
  })
  server.closeIdleConnections()
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))
