import 'server-only'

/** Every error code the HTTP API can answer with, its status and a default message. */
export const errorCatalogue = {
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_request: { status: 400, message: 'The request is not valid.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the request body as application/json.' },
  unknown_site: { status: 400, message: 'No site has this site key; copy the key from the console.' },
  unauthorized: {
    status: 401,
    message: 'Send a valid secret API key as `Authorization: Bearer <key>`.',
  },
  forbidden: { status: 403, message: 'This API key belongs to another site.' },
  cross_origin: { status: 403, message: 'This request must come from Tessera’s own pages.' },
  challenge_required: { status: 403, message: 'Solve the proof-of-work puzzle, then try again.' },
  rate_limited: { status: 429, message: 'Too many requests; slow down.' },
  request_reused: { status: 409, message: 'This request ID was already used.' },
  request_expired: { status: 400, message: 'This request ID is too old.' },
  email_taken: { status: 409, message: 'An account with this email already exists.' },
  conflict: { status: 409, message: 'This clashes with the current state; reload and try again.' },
  not_found: { status: 404, message: 'Nothing was found here.' },
  method_not_allowed: { status: 405, message: 'This endpoint does not take this method.' },
  misdirected_request: {
    status: 421,
    message: 'This server does not answer for this host name; use its configured address.',
  },
  service_unavailable: { status: 503, message: 'The service is starting or unavailable; try again shortly.' },
  /** Not a caller's mistake: an unexpected failure, logged; the answer says nothing more. */
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
} as const

export type ErrorCode = keyof typeof errorCatalogue

/** The one error body: `{ error: { code, message, details? } }`, the catalogue's message by default. */
export function errorBody(code: ErrorCode, message?: string, details?: unknown) {
  return {
    error: { code, message: message ?? errorCatalogue[code].message, ...(details ? { details } : {}) },
  }
}

/** A caller's mistake, turned into `{ error: { code, message } }` with its status. */
export class HttpError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details?: unknown

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? errorCatalogue[code].message)
    this.code = code
    this.status = errorCatalogue[code].status
    this.details = details
  }
}
