// Tessera's production HTTP server: Next.js behind a thin node:http front that owns
// X-Forwarded-For. `next start` passes a client-sent X-Forwarded-For through unchanged, so any
// caller could pick its own IP; here only the entries added by TESSERA_TRUSTED_PROXIES
// proxies are kept, followed by the address of the socket itself, and the public paths of
// first-party serving (TESSERA_AGENT_PATH, TESSERA_API_PREFIX) become the canonical ones
// (prepareRequest in src/server/http/serve-node-route.ts). The agent's hot path
// (POST /api/v1/identify) is answered here directly, with the same handler as its Next.js
// route (src/server/http/serve-node-route.ts, built by scripts/build-server.mjs).
import { createServer } from 'node:http'
import next from 'next'

const port = Number(process.env.PORT ?? 3000)
const hostname = process.env.TESSERA_HOST ?? '0.0.0.0'

const app = next({ dev: false, hostname, port })
const handle = app.getRequestHandler()
await app.prepare()
const { noteConnection, prepareRequest, serveNodeRoute, whenTesseraReady } = await import(
  '../dist/server/serve-node-route.mjs'
)
// Next.js runs start-up (src/instrumentation.ts) without waiting for it: listen once it is done.
await whenTesseraReady()

// A client that stalls must not hold a connection for Node's default 300 s: the whole request
// (head and body; a 64 KB body at most) must arrive within 15 s, its head within 10 s. Only the
// request is timed, so a slow answer (or a long poll) is not cut off. Checked every second.
const timeouts = { requestTimeout: 15_000, headersTimeout: 10_000, connectionsCheckingInterval: 1_000 }

createServer(timeouts, (request, response) => {
  prepareRequest(request)
  if (!serveNodeRoute(request, response)) handle(request, response)
})
  // Counted so that identification lets waiting connections in between its batches
  // (src/server/http/connection-turns.ts).
  .on('connection', noteConnection)
  .listen(port, hostname, () => {
    console.log(
      JSON.stringify({
        level: 30,
        time: new Date().toISOString(),
        msg: `Tessera listening on http://${hostname}:${port}`,
      }),
    )
  })
