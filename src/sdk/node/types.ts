// The Server API's shapes, as plain types: the package must not need zod. types.test.ts checks
// that each is exactly the type its contract in src/contracts/server-api.ts infers, so they
// cannot drift from the OpenAPI document (generated from the same contracts).

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** Counts over the last 5 minutes, hour and day. */
export type Windows = { '5m': number; '1h': number; '24h': number }
/** A yes/no finding with the reasons for it, in plain language. */
export type Flag = { result: boolean; reasons: string[] }
export type Confidence = 'low' | 'medium' | 'high'

/** Where the address is and who runs its network. */
export interface IpInfo {
  address: string
  version: 4 | 6
  countryCode: string | null
  countryName: string | null
  region: string | null
  city: string | null
  latitude: number | null
  longitude: number | null
  timezone: string | null
  asn: number | null
  asnOrganization: string | null
  asnType: 'hosting' | 'vpn' | 'relay' | 'isp' | null
}

/**
 * Every smart signal, each with its result and the reasons for it in plain language. An event
 * stored before a signal existed lacks it (signals are only added). Described in docs/signals.md.
 */
export interface Signals {
  bot?: { result: 'notDetected' | 'good' | 'bad'; kind?: string; reasons: string[] }
  tampering?: Flag
  privacyBrowser?: Flag
  privateMode?: Flag
  virtualMachine?: Flag
  velocity?: {
    result: { events: Windows; distinctIps: Windows; distinctLinkedIds: { '24h': number } }
    reasons: string[]
  }
  ipVelocity?: {
    result: {
      address: {
        events: Windows
        visitors: { '1h': number; '24h': number }
        accounts: { '1h': number; '24h': number }
      }
      network: {
        prefix: string
        visitors: { '1h': number; '24h': number }
        accounts: { '1h': number; '24h': number }
      }
    } | null
    reasons: string[]
  }
  ipInfo?: { result: IpInfo | null; reasons: string[] }
  datacenter?: { result: boolean; kind?: string; reasons: string[] }
  vpn?: {
    result: boolean
    confidence: Confidence
    details: {
      originTimezone: string | null
      originCountry: string | null
      methods: { timezoneMismatch: boolean; publicVpn: boolean; relay: boolean }
    }
    reasons: string[]
  }
  proxy?: { result: boolean; confidence: Confidence; reasons: string[] }
  tor?: Flag
  ipBlocklist?: Flag
  agentProof?: { result: 'valid' | 'missing' | 'invalid' | 'expired' | 'reused'; reasons: string[] }
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
  signals: Signals
  suspectScore: number
  /** An analyst's label of the visitor, set in Tessera's console (null: none). */
  visitorLabel?: 'fraud' | 'good' | null
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
  | 'method_not_allowed'
  | 'misdirected_request'
  | 'service_unavailable'
  | 'internal_error'
