import 'server-only'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { identifyRoute } from '../identification/identify-route'
import { log } from '../log'
import { baseHeaders, denyFraming } from './security-headers'

type RouteHandler = (request: Request) => Promise<Response>

/**
 * Routes that scripts/serve.mjs answers itself, ahead of Next.js: only the agent's hot path.
 * Next's router costs about 0.7 ms per request, more than identifying a device does, so going
 * around it doubles identify throughput (bench:identify). The handlers are the same ones the
 * Next.js routes export, so `next dev` and production answer alike.
 */
const nodeRoutes: Record<string, RouteHandler> = {
  'POST /api/v1/identify': identifyRoute,
}

/** The headers next.config.ts gives every route but /frame, as node:http takes them. */
const securityHeaders: Record<string, string> = Object.fromEntries(
  [...baseHeaders, ...denyFraming].map(({ key, value }) => [key.toLowerCase(), value]),
)

export { whenTesseraReady } from '../readiness'

/** Answers the request when it is one of nodeRoutes and returns true; otherwise returns false. */
export function serveNodeRoute(request: IncomingMessage, response: ServerResponse): boolean {
  const url = request.url ?? '/'
  const query = url.indexOf('?')
  const handler = nodeRoutes[`${request.method} ${query < 0 ? url : url.slice(0, query)}`]
  if (!handler) return false
  answer(handler, request, response).catch((error: unknown) => {
    log.error({ err: error }, 'node route failed')
    if (response.headersSent) return void response.destroy()
    const body = JSON.stringify({
      error: { code: 'internal_error', message: 'Something went wrong on our side.' },
    })
    response.writeHead(500, {
      ...securityHeaders,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    })
    response.end(body)
  })
  return true
}

async function answer(handler: RouteHandler, request: IncomingMessage, response: ServerResponse) {
  // request.headers, not rawHeaders: serve.mjs has rewritten X-Forwarded-For there.
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    for (const entry of Array.isArray(value) ? value : [value ?? '']) headers.append(name, entry)
  }
  // The body stays a stream, so parseRequest's size limit holds while it arrives.
  const body = Readable.toWeb(request) as ReadableStream<Uint8Array>
  const result = await handler(
    new Request(new URL(request.url ?? '/', requestOrigin(request)), {
      method: request.method,
      headers,
      body,
      duplex: 'half',
    } as RequestInit),
  )
  const outgoing: Record<string, string | string[]> = { ...securityHeaders }
  result.headers.forEach((value, key) => {
    if (key !== 'set-cookie') outgoing[key] = value
  })
  const cookies = result.headers.getSetCookie()
  if (cookies.length > 0) outgoing['set-cookie'] = cookies
  const payload = Buffer.from(await result.arrayBuffer())
  outgoing['content-length'] = String(payload.length)
  response.writeHead(result.status, outgoing).end(payload)
}

/** The request's own origin; a Host header that is not a host falls back to localhost. */
function requestOrigin(request: IncomingMessage): string {
  const origin = `http://${request.headers.host ?? 'localhost'}`
  return URL.canParse(origin) ? origin : 'http://localhost'
}
