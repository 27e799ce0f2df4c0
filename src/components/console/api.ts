import type { ConsoleAnswer, ConsoleEndpoint, ConsoleRequest } from '@/contracts/console-endpoints'
import { type FormErrors, splitErrors } from '../form-errors'

/** The request after the endpoint: left out where the endpoint takes no parameters, query or body. */
export type RequestArguments<Endpoint extends ConsoleEndpoint> =
  Partial<ConsoleRequest<Endpoint>> extends ConsoleRequest<Endpoint>
    ? [request?: ConsoleRequest<Endpoint>]
    : [request: ConsoleRequest<Endpoint>]

/**
 * Any endpoint's request, as the implementations below read it; each function's overload types
 * the request and the answer per endpoint, from the table.
 */
interface AnyRequest {
  params?: Record<string, string>
  query?: object
  body?: unknown
}

/**
 * Calls a console endpoint of the table (contracts/console-endpoints.ts), e.g.
 * `callConsole('PATCH /api/console/sites/:siteId', { params: { siteId }, body })`; resolves to its
 * answer's type and throws a ConsoleError carrying the server's plain message on failure.
 * The answer is not parsed here: the schemas stay out of the browser's bundle, and
 * endpoints.test.ts parses every route's real answer with them.
 */
export function callConsole<Endpoint extends ConsoleEndpoint>(
  endpoint: Endpoint,
  ...request: RequestArguments<Endpoint>
): Promise<ConsoleAnswer<Endpoint>>
export function callConsole(endpoint: ConsoleEndpoint, request: AnyRequest = {}): Promise<unknown> {
  return send(endpoint, urlOf(endpoint, request), request.body)
}

/** An endpoint's URL: its path with each `:name` filled in, then its query. */
export function consoleUrl<Endpoint extends ConsoleEndpoint>(
  endpoint: Endpoint,
  request: ConsoleRequest<Endpoint>,
): string
export function consoleUrl(endpoint: ConsoleEndpoint, request: AnyRequest): string {
  return urlOf(endpoint, request)
}

/** GETs an endpoint at a URL made by consoleUrl: for a caller that keys its memo on the URL (usePolling). */
export function readConsole<Endpoint extends ConsoleEndpoint & `GET ${string}`>(
  endpoint: Endpoint,
  url: string,
): Promise<ConsoleAnswer<Endpoint>>
export function readConsole(endpoint: ConsoleEndpoint, url: string): Promise<unknown> {
  return send(endpoint, url)
}

function urlOf(endpoint: ConsoleEndpoint, { params = {}, query = {} }: AnyRequest): string {
  const path = endpoint
    .slice(endpoint.indexOf(' ') + 1)
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value))
  const queryString = search.toString()
  return queryString ? `${path}?${queryString}` : path
}

/** Dispatched on the window when a console call finds the session gone. */
export const SESSION_ENDED = 'tessera:session-ended'
/** Dispatched on the window when a site was added: the site selector reloads. */
export const SITES_CHANGED = 'tessera:sites-changed'
/**
 * In sessionStorage while the console goes to the sign-in form after its session ended: the
 * operator's username, so the form can say why and name them (their cookie may be gone with it);
 * the console removes it once signed in again.
 */
export const ENDED_SESSION_USER = 'tessera:ended-session-user'
/** Set by the sign-in form on success: the console then opens at its top, its heading focused. */
export const JUST_SIGNED_IN = 'tessera:just-signed-in'

async function send(endpoint: ConsoleEndpoint, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: endpoint.slice(0, endpoint.indexOf(' ')),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  })
  if (response.status === 204) return undefined
  const answer = await response.json().catch(() => undefined)
  if (!response.ok) {
    // The session is gone (signed out in another tab, expired, the account removed, the password
    // changed in another session): the console says so once, in a banner that stays in sight,
    // rather than leaving every panel to fail on its own.
    if (response.status === 401 && endpoint !== 'POST /api/console/session' && typeof window !== 'undefined')
      window.dispatchEvent(new Event(SESSION_ENDED))
    const message = readableMessage(answer?.error) ?? `The server answered ${response.status}.`
    throw new ConsoleError(message, response.status, answer?.error?.code, answer?.error?.details)
  }
  return answer
}

/**
 * A refusal's message as the operator reads it: the server names the refused field first
 * ("q: A look-up is at most…") for API clients; the console shows the words alone.
 */
function readableMessage(error: { message?: unknown; details?: unknown } | undefined): string | undefined {
  const message = typeof error?.message === 'string' ? error.message : undefined
  const details = error?.details as { issues?: { path?: unknown }[] } | undefined
  const path = details?.issues?.[0]?.path
  // A nested path (allowedOrigins.3) says which entry: kept.
  if (message && typeof path === 'string' && path && !path.includes('.') && message.startsWith(`${path}: `))
    return message.slice(path.length + 2)
  return message
}

export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The error catalogue's code, e.g. `challenge_required`. */
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** A failed console call's messages, placed on the form's own fields where they name one. */
export function formErrorsOf(failure: unknown, fieldNames: readonly string[], fallback: string): FormErrors {
  if (!(failure instanceof Error)) return { fields: {}, form: fallback }
  return splitErrors(
    failure.message,
    failure instanceof ConsoleError ? failure.details : undefined,
    fieldNames,
  )
}
