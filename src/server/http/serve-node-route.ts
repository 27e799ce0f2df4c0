import 'server-only'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { getEnv } from '../env'
import { log } from '../log'
import { namesOwnHost } from './allowed-hosts'
import { clientInChain, clientNetwork, rewriteForwardingHeaders } from './client-address'
import { type ErrorCode, errorBody, errorCatalogue } from './errors'
import { healthEndpoint as health } from './health-endpoint'
import { identifyAdmission } from './identify-admission'
import { identifyEndpoint as identify } from './identify-endpoint'
import { closeUnlessKept, hangUpSignal, streamBody } from './node-connection'
import { nonceEndpoint as nonce } from './nonce-endpoint'
import { canonicalUrl, PUBLIC_PATH_HEADER } from './public-paths'
import { baseHeaders, denyFraming } from './security-headers'

type RouteHandler = (request: Request) => Promise<Response>

interface NodeRoute {
  handler: RouteHandler
  /** Under admission control (identify-admission.ts): refused early when its client sends too much. */
  admitted: boolean
}

/**
 * Routes that scripts/serve.mjs answers itself, ahead of Next.js: the agent's hot path (the
 * identify call, under admission control, and the nonce asked for beside it) and the health check,
 * which must answer within a second under load.
 * Next's router costs about 0.7 ms per request, more than identifying a device does, so going
 * around it doubles identify throughput (bench:identify); it also takes several turns of the event
 * loop, and under load each turn waits for a batch of identifications (the embedded database runs
 * on this thread). The handlers are the Next.js routes' own exports (this table is a router, like
 * Next's), so `next dev` and production answer alike.
 */
const nodeRoutes: Record<string, NodeRoute> = {
  'POST /api/v1/identify': { handler: identify, admitted: true },
  'GET /api/health': { handler: health, admitted: false },
  'GET /api/v1/nonce': { handler: nonce, admitted: false },
}

/** The headers next.config.ts gives every route but /frame, as node:http takes them. */
const securityHeaders: Record<string, string> = Object.fromEntries(
  [...baseHeaders, ...denyFraming].map(({ key, value }) => [key.toLowerCase(), value]),
)

export { closeDatabase } from '../db/client'
export { whenTesseraReady } from '../readiness'
export { noteConnection } from './connection-turns'

/**
 * What the front does to every request before anything answers it: X-Forwarded-For keeps only
 * what trusted proxies added, then the socket's address (`next start` would pass a client's own
 * through), and the other forwarding headers count only from a trusted proxy; a public path
 * (TESSERA_AGENT_PATH, TESSERA_API_PREFIX) becomes its canonical one.
 */
export function prepareRequest(request: IncomingMessage): void {
  rewriteForwardingHeaders(request)
  delete request.headers[PUBLIC_PATH_HEADER]
  const { TESSERA_AGENT_PATH, TESSERA_API_PREFIX } = getEnv()
  const canonical = canonicalUrl(request.url ?? '/', {
    agentPath: TESSERA_AGENT_PATH,
    apiPrefix: TESSERA_API_PREFIX,
  })
  if (canonical) {
    request.url = canonical
    request.headers[PUBLIC_PATH_HEADER] = '1'
  }
}

/**
 * Paths answered whatever the Host: load balancers and orchestrators probe a server by its address,
 * and the answer (up, and which database engine) tells a rebound page nothing worth having.
 */
const ANY_HOST_PATHS = new Set(['/api/health'])

/**
 * Answers the request when it names a host that is not Tessera's (421), its path is not valid
 * %-encoding (400), or it is one of nodeRoutes, and returns true; otherwise returns false (Next.js
 * answers).
 */
export function serveNodeRoute(request: IncomingMessage, response: ServerResponse): boolean {
  const url = request.url ?? '/'
  const query = url.indexOf('?')
  const path = query < 0 ? url : url.slice(0, query)
  if (!ANY_HOST_PATHS.has(path) && !namesOwnHost(hostsOf(request))) {
    refuseMisdirected(request, response, path)
    return true
  }
  if (!isDecodable(path)) {
    // Next.js decodes route parameters and answered these with a bare 500, before authentication.
    // The answer depends on what was asked for: caches must keep the page and the JSON apart.
    const vary = { vary: 'Accept' }
    if (wantsPage(request, path))
      sendEarly(
        request,
        response,
        400,
        { ...vary, 'content-type': 'text/html; charset=utf-8' },
        UNDECODABLE_PAGE,
      )
    else sendError(request, response, 'invalid_request', 'The URL path has invalid %-encoding.', vary)
    return true
  }
  const route = nodeRoutes[`${request.method} ${path}`]
  if (!route) return false
  const answered = route.admitted
    ? admitAndAnswer(route.handler, request, response)
    : answer(route.handler, request, response)
  answered.catch((error: unknown) => {
    log.error({ err: error }, 'node route failed')
    if (response.headersSent) return void response.destroy()
    sendError(request, response, 'internal_error')
  })
  return true
}

/** The APIs' paths, answered in the JSON error shape whoever asks; a screen's path may get a page. */
const API_PATH = /^\/(api|v4)(\/|$)/

/** The names a request gives for Tessera: its Host, and the X-Forwarded-Host a trusted proxy kept. */
function hostsOf(request: IncomingMessage) {
  const forwarded = request.headers['x-forwarded-host']
  return { host: request.headers.host, forwardedHost: Array.isArray(forwarded) ? forwarded[0] : forwarded }
}

/** 421 Misdirected Request: the API's JSON error on API paths, a plain page for a browser elsewhere. */
function refuseMisdirected(request: IncomingMessage, response: ServerResponse, path: string) {
  if (API_PATH.test(path)) return sendError(request, response, 'misdirected_request')
  sendEarly(request, response, 421, { 'content-type': 'text/plain; charset=utf-8' }, MISDIRECTED_PAGE)
}

const MISDIRECTED_PAGE =
  'Misdirected request: this Tessera server does not answer for this host name. ' +
  'Use its configured address (TESSERA_PUBLIC_URL, TESSERA_ALLOWED_HOSTS).\n'

/** Admission control, then the handler; a refused request is answered before its body is read. */
async function admitAndAnswer(handler: RouteHandler, request: IncomingMessage, response: ServerResponse) {
  const address =
    clientInChain(joined(request.headers['x-forwarded-for']), getEnv().TESSERA_TRUSTED_PROXIES) ??
    request.socket.remoteAddress ??
    'unknown'
  const admission = await identifyAdmission().admit(clientNetwork(address))
  if ('refusal' in admission) {
    const { code, message, retryAfter } = admission.refusal
    return sendError(request, response, code, message, { 'retry-after': String(retryAfter) })
  }
  try {
    await answer(handler, request, response)
  } finally {
    admission.release()
  }
}

function joined(header: string | string[] | undefined): string | null {
  return Array.isArray(header) ? header.join(', ') : (header ?? null)
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

/** A browser opening a screen's address (not an API's) is answered a page, not the JSON error. */
function wantsPage(request: IncomingMessage, path: string): boolean {
  return !API_PATH.test(path) && /\btext\/html\b/.test(request.headers.accept ?? '')
}

/** What a person sees for an address with broken %-encoding (a link cut off mid-character). */
const UNDECODABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not a valid address · Tessera</title>
<style>body{font:16px/1.55 system-ui,sans-serif;color:#101828;background:#f5f6f9;margin:0}main{max-width:36rem;margin:5rem auto;padding:0 1.25rem}a{color:#4338ca}</style>
</head><body><main><h1>Not a valid address</h1>
<p>This address has a broken character in it (a <code>%</code> not followed by a valid code), as when a link is cut off while being copied.</p>
<p><a href="/">Open Tessera's home page</a> or <a href="/device-fingerprint">see your device</a>.</p>
</main></body></html>
`

/** An error answered by the front itself, in the one error shape, with the security headers. */
function sendError(
  request: IncomingMessage,
  response: ServerResponse,
  code: ErrorCode,
  message?: string,
  headers: Record<string, string> = {},
) {
  const status = errorCatalogue[code].status
  const body = JSON.stringify(errorBody(code, message))
  sendEarly(request, response, status, { ...headers, 'content-type': 'application/json' }, body)
}

/**
 * An answer given without reading the request's body: the connection stays open when what is left
 * of the body is small (Node.js reads and drops it), and closes otherwise.
 */
function sendEarly(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
) {
  const outgoing: Record<string, string | number> = {
    ...securityHeaders,
    ...headers,
    'content-length': Buffer.byteLength(body),
  }
  closeUnlessKept(request, outgoing, false)
  response.writeHead(status, outgoing).end(body)
}

async function answer(handler: RouteHandler, request: IncomingMessage, response: ServerResponse) {
  // request.headers, not rawHeaders: serve.mjs has rewritten X-Forwarded-For there.
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    for (const entry of Array.isArray(value) ? value : [value ?? '']) headers.append(name, entry)
  }
  // The body stays a stream, so parseRequest's size limit holds while it arrives.
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : streamBody(request)
  const result = await handler(
    new Request(new URL(request.url ?? '/', requestOrigin(request)), {
      method: request.method,
      headers,
      // A GET (the nonce) has no body, and a Request refuses to be given one.
      body: request.method === 'GET' || request.method === 'HEAD' ? null : body?.stream,
      duplex: 'half',
      signal: hangUpSignal(request, response),
    } as RequestInit),
  )
  const outgoing: Record<string, string | string[]> = { ...securityHeaders }
  closeUnlessKept(request, outgoing, body?.stop() ?? false)
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
