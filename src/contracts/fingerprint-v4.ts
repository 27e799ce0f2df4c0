import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { EventTag, JsonValue } from './identify'
import { IP_FILTER_MESSAGE, parseIpFilter } from './ip-filter'
import { isStorableInstant } from './server-api'

extendZodWithOpenApi(z)

/**
 * Fingerprint Server API v4, as Tessera answers it under `/v4`: the same events as `/api/v1`, in
 * Fingerprint's snake_case shapes, so that Fingerprint's own server SDKs work against Tessera.
 * The names come from `@fingerprint/node-sdk`'s generated v4 types; a field Tessera does not
 * compute is left out, never faked.
 */

/** The error codes of v4 that Tessera answers with (a subset of v4's `ErrorCode`). */
export const FingerprintErrorCode = z.enum([
  'request_cannot_be_parsed',
  'secret_api_key_required',
  'secret_api_key_not_found',
  'event_not_found',
  'visitor_not_found',
  'ruleset_not_found',
  'too_many_requests',
  'payload_too_large',
  'service_unavailable',
  'failed',
])
export type FingerprintErrorCode = z.infer<typeof FingerprintErrorCode>

export const FingerprintErrorResponse = z
  .object({ error: z.object({ code: FingerprintErrorCode, message: z.string() }) })
  .openapi('FingerprintErrorResponse', {
    description: "Every /v4 error, in Fingerprint Server API v4's shape.",
  })
export type FingerprintErrorResponse = z.infer<typeof FingerprintErrorResponse>

const epochMilliseconds = z.number().int().openapi({ description: 'Unix time in milliseconds.' })

/** Counts over 5 minutes, 1 hour and 24 hours, up to and including the event. */
const VelocityData = z.object({
  '5_minutes': z.number().int(),
  '1_hour': z.number().int(),
  '24_hours': z.number().int().optional(),
})

const Confidence = z.enum(['low', 'medium', 'high'])

/** Where an address is, from the offline databases (DB-IP City Lite has no radius, postcode or time zone of its own). */
const Geolocation = z.object({
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  timezone: z.string().optional().openapi({ description: "The country's time zone, where it has one." }),
  city_name: z.string().optional(),
  country_code: z.string().optional(),
  country_name: z.string().optional(),
})

const IpInfoVersion = z.object({
  address: z.string(),
  geolocation: Geolocation.optional(),
  asn: z.string().optional(),
  asn_name: z.string().optional(),
  asn_type: z.string().optional().openapi({ description: '`hosting`, `vpn`, `relay` or `isp`.' }),
  datacenter_result: z.boolean().optional(),
  datacenter_name: z.string().optional(),
})

export const FingerprintEvent = z
  .object({
    event_id: z.string().openapi({ description: "Tessera's request ID." }),
    timestamp: epochMilliseconds,
    linked_id: z.string().optional(),
    suspect: z.boolean().optional().openapi({
      description:
        "Present once set through PATCH, or where an analyst labelled the visitor in Tessera's console (fraud: true, good: false); PATCH wins.",
    }),
    identification: z.object({
      visitor_id: z.string(),
      confidence: z.object({ score: z.number().min(0).max(1) }),
      visitor_found: z.boolean(),
      first_seen_at: epochMilliseconds
        .optional()
        .openapi({ description: "The visitor's first event on this site, at or before this one." }),
      last_seen_at: epochMilliseconds
        .optional()
        .openapi({ description: "The visitor's previous event on this site; absent on its first." }),
    }),
    tags: z.record(z.string(), JsonValue).optional(),
    url: z.string().optional(),
    ip_address: z.string().optional(),
    user_agent: z.string().optional(),
    bot: z.enum(['bad', 'good', 'not_detected']).optional(),
    bot_type: z.string().optional().openapi({ description: 'What kind of bot, e.g. `playwright`.' }),
    incognito: z.boolean().optional(),
    privacy_settings: z.boolean().optional(),
    tampering: z.boolean().optional(),
    virtual_machine: z.boolean().optional(),
    ip_info: z
      .object({ v4: IpInfoVersion.optional(), v6: IpInfoVersion.optional() })
      .optional()
      .openapi({ description: 'The address looked up in the offline network databases.' }),
    vpn: z.boolean().optional(),
    vpn_confidence: Confidence.optional(),
    vpn_origin_timezone: z.string().optional(),
    vpn_origin_country: z.string().optional(),
    vpn_methods: z
      .object({ timezone_mismatch: z.boolean(), public_vpn: z.boolean(), relay: z.boolean() })
      .optional(),
    proxy: z.boolean().optional(),
    proxy_confidence: Confidence.optional(),
    ip_blocklist: z
      .object({ tor_node: z.boolean() })
      .optional()
      .openapi({ description: 'Tor exit relays, from the exit list the operator configured.' }),
    velocity: z
      .object({
        distinct_ip: VelocityData.optional(),
        events: VelocityData.optional(),
        ip_events: VelocityData.optional(),
      })
      .optional()
      .openapi({
        description:
          "The visitor's events and distinct IP addresses, and the events from this event's address (among its latest 500 of the day).",
      }),
    suspect_score: z.number().int().optional().openapi({
      description: "Tessera's suspect score (its own weights, listed in Tessera's docs/signals.md).",
    }),
  })
  .openapi('FingerprintEvent', {
    description:
      "One identification event in Fingerprint Server API v4's shape (the fields Tessera computes).",
  })
export type FingerprintEvent = z.infer<typeof FingerprintEvent>

export const FingerprintEventSearch = z
  .object({
    events: z.array(FingerprintEvent),
    pagination_key: z.string().optional().openapi({ description: 'Pass back to get the next page.' }),
  })
  .openapi('FingerprintEventSearch')
export type FingerprintEventSearch = z.infer<typeof FingerprintEventSearch>

export const FingerprintEventUpdate = z
  .object({
    linked_id: z.string().max(256).optional(),
    tags: EventTag.optional(),
    suspect: z.boolean().optional(),
  })
  .strict()
  .refine(
    (update) => Object.values(update).some((value) => value !== undefined),
    'Send at least one of linked_id, tags and suspect.',
  )
  .openapi('FingerprintEventUpdate')
export type FingerprintEventUpdate = z.infer<typeof FingerprintEventUpdate>

/** `ii`: the integration name Fingerprint's SDKs add to every call; accepted and ignored. */
const integrationInfo = z.string().max(200).optional()

export const FingerprintEventIdParam = z.object({ event_id: z.string().min(1).max(64) })
export const FingerprintVisitorIdParam = z.object({ visitor_id: z.string().min(1).max(64) })

export const FingerprintGetEventQuery = z
  .object({
    ii: integrationInfo,
    ruleset_id: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: 'Tessera has no rulesets: always 404.' }),
  })
  .strict()

/** PATCH and DELETE take no parameters but the SDK's `ii`. */
export const FingerprintNoQuery = z.object({ ii: integrationInfo }).strict()

const flag = z.enum(['true', 'false']).transform((value) => value === 'true')

/** RFC 3339, or (as v4 still accepts) Unix milliseconds; read as an ISO string. */
const instant = z
  .string()
  .max(40)
  .transform((value, context) => {
    const time = /^\d{1,15}$/.test(value)
      ? Number(value)
      : z.iso.datetime({ offset: true }).safeParse(value).success
        ? Date.parse(value)
        : Number.NaN
    if (Number.isNaN(time)) {
      context.addIssue({ code: 'custom', message: 'Use an RFC 3339 date or Unix milliseconds.' })
      return z.NEVER
    }
    if (!isStorableInstant(time)) {
      context.addIssue({ code: 'custom', message: 'Dates must fall in the years 0001 to 9999.' })
      return z.NEVER
    }
    return new Date(time).toISOString()
  })
  .openapi({ type: 'string', description: 'RFC 3339 date, or Unix milliseconds.' })

/** An address (a /32 or /128) or a CIDR range, in the forms PostgreSQL's inet reads. */
const ipAddress = z
  .string()
  .max(64)
  .transform((value, context): { ip: string } | { ipRange: string } => {
    const filter = parseIpFilter(value)
    if (filter) return filter
    context.addIssue({ code: 'custom', message: IP_FILTER_MESSAGE })
    return z.NEVER
  })
  .openapi({ type: 'string', description: 'An IP address, or a CIDR range like `10.0.0.0/24`.' })

/** The search filters of v4 that Tessera can answer. */
export const FingerprintSearchQuery = z
  .object({
    ii: integrationInfo,
    limit: z.coerce.number().int().min(1).max(100).default(10),
    pagination_key: z.string().max(200).optional(),
    visitor_id: z.string().max(64).optional(),
    linked_id: z.string().max(256).optional(),
    url: z.string().max(2000).optional(),
    ip_address: ipAddress.optional(),
    bot: z.enum(['all', 'good', 'bad', 'none']).optional(),
    start: instant.optional().openapi({ description: 'Default: 7 days ago.' }),
    end: instant.optional().openapi({ description: 'Default: now.' }),
    reverse: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    suspect: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    incognito: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    privacy_settings: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    tampering: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    virtual_machine: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    vpn: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    vpn_confidence: Confidence.optional(),
    proxy: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    tor_node: flag.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
    asn: z
      .string()
      .regex(/^\d{1,10}$/, 'An AS number, digits only.')
      .optional(),
    min_suspect_score: z.coerce.number().min(0).max(1_000_000).optional(),
  })
  .strict()
export type FingerprintSearchQuery = z.infer<typeof FingerprintSearchQuery>

/**
 * v4 search filters for what Tessera does not compute (the mobile signals, bot_info, anti-detect browsers…):
 * refused by name, rather than ignored, so a search never answers for a filter it did not apply.
 */
export const UNSUPPORTED_SEARCH_FILTERS = [
  'high_recall_id',
  'bot_info',
  'bot_info_category',
  'bot_info_identity',
  'bot_info_confidence',
  'bot_info_provider',
  'bot_info_name',
  'bundle_id',
  'package_name',
  'origin',
  'anti_detect_browser',
  'jailbroken',
  'frida',
  'factory_reset',
  'cloned_app',
  'emulator',
  'root_apps',
  'developer_tools',
  'location_spoofing',
  'mitm_attack',
  'rare_device',
  'rare_device_percentile_bucket',
  'sdk_version',
  'sdk_platform',
  'environment',
  'proximity_id',
  'total_hits',
  'incremental_identification_status',
  'simulator',
  'active_call',
  'source',
] as const
