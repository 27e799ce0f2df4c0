import 'server-only'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { POST as identify } from '@/app/api/v1/identify/route'
import { GET as nonce } from '@/app/api/v1/nonce/route'
import { log } from '../log'
import { forwardClientAddress } from './client-address'
import { errorBody } from './errors'
import { canonicalUrl, PUBLIC_PATH_HEADER } from './public-paths'
import { baseHeaders, denyFraming } from './security-headers'

type RouteHandler = (request: Request) => Promise<Response>

/**
 * Routes that scripts/serve.mjs answers itself, ahead of Next.js: only the agent's hot path (the
 * identify call and the nonce asked for beside it).
 * Next's router costs about 0.7 ms per request, more than identifying a device does, so going
 * around it doubles identify throughput (bench:identify). The handlers are the Next.js routes' own
 * exports (this table is a router, like Next's), so `next dev` and production answer alike.
 */
const nodeRoutes: Record<string, RouteHandler> = {
  'POST /api/v1/identify': identify,
  'GET /api/v1/nonce': nonce,
}

/** The headers next.config.ts gives every route but /frame, as node:http takes them. */
const securityHeaders: Record<string, string> = Object.fromEntries(
  [...baseHeaders, ...denyFraming].map(({ key, value }) => [key.toLowerCase(), value]),
)

export { whenTesseraReady } from '../readiness'

/**
 * What the front does to every request before anything answers it: X-Forwarded-For keeps only
 * what trusted proxies added, then the socket's address (`next start` would pass a client's own
 * through); a public path (TESSERA_AGENT_PATH, TESSERA_API_PREFIX) becomes its canonical one.
 */
export function prepareRequest(request: IncomingMessage): void {
  forwardClientAddress(request)
  delete request.headers[PUBLIC_PATH_HEADER]
  const canonical = canonicalUrl(request.url ?? '/')
  if (canonical) {
    request.url = canonical
    request.headers[PUBLIC_PATH_HEADER] = '1'
  }
}

/**
 * Answers the request when it is one of nodeRoutes, or its path is not valid %-encoding, and
 * returns true; otherwise returns false (Next.js answers).
 */
export function serveNodeRoute(request: IncomingMessage, response: ServerResponse): boolean {
  const url = request.url ?? '/'
  const query = url.indexOf('?')
  const path = query < 0 ? url : url.slice(0, query)
  if (!isDecodable(path)) {
    // Next.js decodes route parameters and answered these with a bare 500, before authentication.
    sendJson(response, 400, errorBody('invalid_request', 'The URL path has invalid %-encoding.'))
    return true
  }
  const handler = nodeRoutes[`${request.method} ${path}`]
  if (!handler) return false
  answer(handler, request, response).catch((error: unknown) => {
    log.error({ err: error }, 'node route failed')
    if (response.headersSent) return void response.destroy()
    sendJson(response, 500, errorBody('internal_error'))
  })
  return true
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

function sendJson(response: ServerResponse, status: number, payload: unknown) {
  const body = JSON.stringify(payload)
  response.writeHead(status, {
    ...securityHeaders,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  })
  response.end(body)
}

async function answer(handler: RouteHandler, request: IncomingMessage, response: ServerResponse) {
  // request.headers, not rawHeaders: serve.mjs has rewritten X-Forwarded-For there.
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    for (const entry of Array.isArray(value) ? value : [value ?? '']) headers.append(name, entry)
  }
  // The body stays a stream, so parseRequest's size limit holds while it arrives.
  const body = streamBody(request)
  const result = await handler(
    new Request(new URL(request.url ?? '/', requestOrigin(request)), {
      method: request.method,
      headers,
      // A GET (the nonce) has no body, and a Request refuses to be given one.
      body: request.method === 'GET' || request.method === 'HEAD' ? null : body.stream,
      duplex: 'half',
    } as RequestInit),
  )
  const outgoing: Record<string, string | string[]> = { ...securityHeaders }
  if (!keepConnection(request, body.stop())) {
    outgoing.connection = 'close'
    lingerBeforeClosing(request.socket)
  }
  result.headers.forEach((value, key) => {
    if (key !== 'set-cookie') outgoing[key] = value
  })
  const cookies = result.headers.getSetCookie()
  if (cookies.length > 0) outgoing['set-cookie'] = cookies
  const payload = Buffer.from(await result.arrayBuffer())
  outgoing['content-length'] = String(payload.length)
  response.writeHead(result.status, outgoing).end(payload)
}

/** Most unread body bytes drained to keep a connection alive; beyond, it is closed instead. */
const MAX_DRAIN_BYTES = 64 * 1024
/** How long a closing connection still reads (and drops) what its client sends. */
const LINGER_MS = 2_000

/**
 * The request body as a web stream. Cancelling it (parseRequest does past the size limit) only
 * stops reading: Readable.toWeb would destroy the socket, and the 413 with it.
 */
function streamBody(request: IncomingMessage) {
  let reading = true
  let cancelled = false
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.on('data', (chunk: Buffer) => {
          if (!reading) return
          controller.enqueue(chunk)
          if ((controller.desiredSize ?? 0) <= 0) request.pause()
        })
        request.once('end', () => reading && controller.close())
        request.once('error', (error) => reading && controller.error(error))
      },
      pull: () => void request.resume(),
      cancel: () => {
        reading = false
        cancelled = true
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
  return {
    stream,
    /** Stops passing data on, drops the rest as it arrives; tells whether the handler gave up reading. */
    stop(): boolean {
      reading = false
      request.resume()
      return cancelled
    },
  }
}

/** Whether the connection can serve another request: its body was read, or what is left is small. */
function keepConnection(request: IncomingMessage, cancelled: boolean): boolean {
  if (request.complete) return true
  const declared = Number(request.headers['content-length'])
  return !cancelled && Number.isFinite(declared) && declared <= MAX_DRAIN_BYTES
}

/**
 * After `Connection: close`, Node.js closes the socket as soon as the answer is written; body bytes
 * still arriving then make the kernel reset the connection, which can cut the answer off at the
 * client. Instead: FIN after the answer, keep dropping what arrives, close when the client does.
 */
function lingerBeforeClosing(socket: Socket) {
  socket.destroySoon = () => {
    socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
    socket.once('end', () =>
      socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()),
    )
  }
}

/** The request's own origin; a Host header that is not a host falls back to localhost. */
function requestOrigin(request: IncomingMessage): string {
  const origin = `http://${request.headers.host ?? 'localhost'}`
  return URL.canParse(origin) ? origin : 'http://localhost'
}
