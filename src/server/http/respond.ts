import 'server-only'
import { log } from '../log'
import { type ErrorCode, errorBody, errorCatalogue, HttpError } from './errors'

export function json(body: unknown, init?: ResponseInit): Response {
  return Response.json(body, init)
}

/** The uniform error answer: `{ error: { code, message } }`. */
export function problem(code: ErrorCode, message?: string, details?: unknown): Response {
  const headers = new Headers()
  if (code === 'unauthorized') headers.set('WWW-Authenticate', 'Bearer')
  if (typeof details === 'object' && details !== null && 'retryAfter' in details) {
    headers.set('Retry-After', String(details.retryAfter))
  }
  return Response.json(errorBody(code, message, details), { status: errorCatalogue[code].status, headers })
}

/** Wraps a route handler: HttpErrors become 4xx answers; anything else is logged and becomes a bare 500. */
export function handle<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args)
    } catch (error) {
      if (error instanceof HttpError) return problem(error.code, error.message, error.details)
      log.error({ err: error }, 'unhandled route error')
      return problem('internal_error')
    }
  }
}

/**
 * The answer for a path under /api or /v4 that no route serves, whatever the method: the uniform
 * JSON error, not the not-found screen's HTML (app/api/[...path], app/v4/[...path]).
 */
export async function unknownEndpoint(): Promise<Response> {
  return problem('not_found', 'No endpoint has this path; /api/v1/openapi.json lists them.')
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * What a route answers for the methods it does not take, to export by name in one line
 * (`export const { PUT, PATCH, OPTIONS } = otherMethods('GET', 'DELETE')`): each the uniform JSON
 * error (405) with the methods it does take in `Allow`, where Next.js would answer an empty 405, and
 * OPTIONS listing those methods (Next.js's own answer would list every exported name). No CORS
 * headers, as before: the agent calls from Tessera's own origin.
 */
export function otherMethods(...allowed: Method[]): Record<Method | 'OPTIONS', () => Promise<Response>> {
  const allow = allowHeader(allowed)
  const refuse = async (): Promise<Response> => {
    const response = problem('method_not_allowed', `This endpoint takes ${allowed.join(' and ')}.`)
    response.headers.set('Allow', allow)
    return response
  }
  return {
    GET: refuse,
    POST: refuse,
    PUT: refuse,
    PATCH: refuse,
    DELETE: refuse,
    OPTIONS: async () => new Response(null, { status: 204, headers: { Allow: allow } }),
  }
}

/** The methods a route takes, HEAD with GET, and OPTIONS. */
const allowHeader = (allowed: readonly string[]) =>
  [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ')
