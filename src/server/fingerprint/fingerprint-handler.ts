import 'server-only'
import type { z } from 'zod'
import type { FingerprintErrorCode, FingerprintErrorResponse } from '@/contracts/fingerprint-v4'
import { type ErrorCode, errorCatalogue, HttpError } from '../http/errors'
import { parseParams } from '../http/parse-query'
import { log } from '../log'

/** What a /v4 route is about: an unknown or foreign ID is "not found" in that route's words. */
export type FingerprintResource = 'event' | 'visitor'

const NOT_FOUND = {
  event: { code: 'event_not_found', message: 'No event of this API key’s site has this event ID.' },
  visitor: { code: 'visitor_not_found', message: 'No event of this API key’s site has this visitor ID.' },
} as const

/**
 * Wraps a /v4 route: Tessera's errors answered in Fingerprint Server API v4's shape and codes (the
 * catalogue stays the one in http/errors.ts; this maps it at the edge). Another site's event or
 * visitor is "not found", as Fingerprint answers for another workspace's: a key learns nothing
 * of other sites. Authentication errors are 403, as v4 answers them.
 */
export function fingerprintHandler<Args extends [Request, ...unknown[]]>(
  resource: FingerprintResource,
  handler: (...args: Args) => Promise<Response>,
) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args)
    } catch (error) {
      if (error instanceof HttpError) return fingerprintProblem(error, resource, args[0])
      log.error({ err: error }, 'unhandled route error')
      return fingerprintError(500, 'failed', errorCatalogue.internal_error.message)
    }
  }
}

function fingerprintProblem(error: HttpError, resource: FingerprintResource, request: Request): Response {
  const map: Partial<Record<ErrorCode, () => Response>> = {
    unauthorized: () =>
      /^Bearer\s+\S/i.test(request.headers.get('authorization') ?? '')
        ? fingerprintError(403, 'secret_api_key_not_found', 'This secret API key is unknown or was revoked.')
        : fingerprintError(
            403,
            'secret_api_key_required',
            'Send a secret API key from the Tessera console as `Authorization: Bearer <key>`.',
          ),
    forbidden: () => fingerprintError(404, NOT_FOUND[resource].code, NOT_FOUND[resource].message),
    not_found: () => fingerprintError(404, NOT_FOUND[resource].code, NOT_FOUND[resource].message),
    rate_limited: () => {
      const response = fingerprintError(429, 'too_many_requests', error.message)
      const details = error.details
      if (typeof details === 'object' && details !== null && 'retryAfter' in details)
        response.headers.set('Retry-After', String(details.retryAfter))
      return response
    },
    payload_too_large: () => fingerprintError(413, 'payload_too_large', error.message),
    service_unavailable: () => fingerprintError(503, 'service_unavailable', error.message),
  }
  // Everything else in the catalogue is the caller's malformed request (400, 415).
  return map[error.code]?.() ?? fingerprintError(error.status, 'request_cannot_be_parsed', error.message)
}

/** A v4 error answer; routes use it for what only v4 has (a ruleset ID). */
export function fingerprintError(status: number, code: FingerprintErrorCode, message: string): Response {
  const body: FingerprintErrorResponse = { error: { code, message } }
  return Response.json(body, { status })
}

/**
 * Query parameters for a /v4 route: each at most once (v4's array filters, given as repeated keys,
 * are among those Tessera does not answer), then validated like every other parameter.
 */
export function parseFingerprintQuery<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): z.infer<Schema> {
  const parameters = new URL(request.url).searchParams
  const seen = new Set<string>()
  for (const name of parameters.keys()) {
    if (seen.has(name)) throw new HttpError('invalid_request', `${name}: give this parameter once.`)
    seen.add(name)
  }
  return parseParams(Object.fromEntries(parameters), schema)
}
