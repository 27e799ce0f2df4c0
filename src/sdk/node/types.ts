// The Server API's shapes, as plain types: the package must not need zod. types.test.ts checks
// that each is exactly the type its contract in src/contracts/server-api.ts infers, so they
// cannot drift from the OpenAPI document (generated from the same contracts).

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** A smart signal: its result and the reasons for it, in plain language. */
export interface SignalResult {
  result: JsonValue
  reasons: string[]
  /** What kind of thing was found, where a signal names one (the bot signal: e.g. `Headless Chromium`). */
  kind?: string
  /** How sure a detection is, where a signal says (vpn, proxy): Fingerprint's low / medium / high. */
  confidence?: 'low' | 'medium' | 'high'
  /** What a signal found besides its result (vpn: the browser's time zone, the address's country, the methods that fired). */
  details?: Record<string, JsonValue>
}

/** One identification event (`GET /api/v1/events/{requestId}`). */
export interface Event {
  requestId: string
  visitorId: string
  visitorFound: boolean
  createdAt: string
  confidence: { score: number }
  ip: string | null
  userAgent: string | null
  url: string | null
  siteKey: string | null
  tag: Record<string, JsonValue> | null
  linkedId: string | null
  signals: Record<string, SignalResult>
  suspectScore: number
}

/** A page of events, newest first (`GET /api/v1/events`). */
export interface EventPage {
  events: Event[]
  /** Pass back as `cursor` for the next page; null on the last. */
  nextCursor: string | null
}

/** A visitor's history on the key's site (`GET /api/v1/visitors/{visitorId}`). */
export interface VisitorHistory {
  visitorId: string
  firstSeenAt: string
  lastSeenAt: string
  events: Event[]
  /** Pass back as `before` for the next page; null on the last. */
  nextCursor: string | null
}

/** Filters of `GET /api/v1/events`, all optional. */
export interface EventSearchQuery {
  visitorId?: string
  linkedId?: string
  ip?: string
  bot?: 'notDetected' | 'good' | 'bad'
  /** ISO 8601 date-time with an offset, e.g. 2026-01-01T00:00:00Z. */
  since?: string
  until?: string
  /** 1 to 100. @default 20 */
  limit?: number
  cursor?: string
}

/** Paging of `GET /api/v1/visitors/{visitorId}`. */
export interface VisitorHistoryQuery {
  /** 1 to 100. @default 20 */
  limit?: number
  before?: string
}

/** Every code the API answers a refusal with. */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_request'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unknown_site'
  | 'unauthorized'
  | 'forbidden'
  | 'cross_origin'
  | 'challenge_required'
  | 'rate_limited'
  | 'request_reused'
  | 'request_expired'
  | 'email_taken'
  | 'conflict'
  | 'not_found'
  | 'misdirected_request'
  | 'service_unavailable'
  | 'internal_error'
