import 'server-only'
import type { FingerprintEvent } from '@/contracts/fingerprint-v4'
import type { Json } from '@/contracts/identify'
import type { StoredEvent } from '@/contracts/server-api'

/** What the stored event does not carry itself: the visitor's history on the site, the suspect flag. */
export interface EventContext {
  /** The visitor's first event on the event's site, at or before this one. */
  firstSeenAt?: string | null
  /** The visitor's event on the site just before this one; none on its first. */
  lastSeenAt?: string | null
  /** Set through PATCH /v4/events/{id}; null or absent until then. */
  suspect?: boolean | null
}

const BOT_RESULTS = { notDetected: 'not_detected', good: 'good', bad: 'bad' } as const

/**
 * A stored event in Fingerprint Server API v4's shape. Pure: the one mapping behind GET /v4,
 * sealed results and Fingerprint-format webhooks. Signals are read defensively (events stored by
 * older versions may lack one), and whatever Tessera did not compute is left out.
 */
export function toFingerprintEvent(event: StoredEvent, context: EventContext = {}): FingerprintEvent {
  const signals = event.signals
  const bot = botOf(signals.bot)
  const velocity = velocityOf(signals.velocity, signals.ipVelocity)
  return {
    event_id: event.requestId,
    timestamp: Date.parse(event.createdAt),
    ...(event.linkedId !== null && { linked_id: event.linkedId }),
    ...(typeof context.suspect === 'boolean' && { suspect: context.suspect }),
    identification: {
      visitor_id: event.visitorId,
      confidence: { score: event.confidence.score },
      visitor_found: event.visitorFound,
      ...(context.firstSeenAt && { first_seen_at: Date.parse(context.firstSeenAt) }),
      ...(context.lastSeenAt && { last_seen_at: Date.parse(context.lastSeenAt) }),
    },
    ...(event.tag !== null && { tags: event.tag }),
    ...(event.url !== null && { url: event.url }),
    ...(event.ip !== null && { ip_address: event.ip }),
    ...(event.userAgent !== null && { user_agent: event.userAgent }),
    ...bot,
    ...flag('incognito', signals.privateMode),
    ...flag('privacy_settings', signals.privacyBrowser),
    ...flag('tampering', signals.tampering),
    ...flag('virtual_machine', signals.virtualMachine),
    ...networkOf(signals),
    ...(velocity && { velocity }),
    suspect_score: event.suspectScore,
  }
}

type Signal = StoredEvent['signals'][string] | undefined

function resultOf(signal: Signal): Json | undefined {
  return signal?.result
}

/** v4's `bot`, and `bot_type` when a bot was detected and Tessera named its kind. */
function botOf(signal: Signal): Pick<FingerprintEvent, 'bot' | 'bot_type'> {
  const result = resultOf(signal)
  if (result !== 'notDetected' && result !== 'good' && result !== 'bad') return {}
  const kind = signal && 'kind' in signal ? signal.kind : undefined
  return {
    bot: BOT_RESULTS[result],
    ...(result !== 'notDetected' && typeof kind === 'string' && { bot_type: slug(kind) }),
  }
}

function flag<Name extends string>(name: Name, signal: Signal): Partial<Record<Name, boolean>> {
  const result = resultOf(signal)
  return typeof result === 'boolean' ? ({ [name]: result } as Record<Name, boolean>) : {}
}

/** `Selenium/WebDriver` → `selenium_webdriver`, in the style of v4's `bot_type` values. */
function slug(kind: string): string {
  return kind
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
}

/**
 * Tessera's `{ events, distinctIps }` per 5m/1h/24h as v4's `events` and `distinct_ip`, and the
 * address's own events (ipVelocity) as `ip_events`.
 */
function velocityOf(signal: Signal, ipSignal: Signal): FingerprintEvent['velocity'] {
  const result = resultOf(signal)
  if (!isRecord(result)) return undefined
  const address = resultOf(ipSignal)
  const windows = (value: Json | undefined) => {
    if (!isRecord(value)) return undefined
    const [five, hour, day] = [value['5m'], value['1h'], value['24h']]
    if (typeof five !== 'number' || typeof hour !== 'number') return undefined
    return { '5_minutes': five, '1_hour': hour, ...(typeof day === 'number' && { '24_hours': day }) }
  }
  const events = windows(result.events)
  const distinctIp = windows(result.distinctIps)
  const ipEvents =
    isRecord(address) && isRecord(address.address) ? windows(address.address.events) : undefined
  if (!events && !distinctIp) return undefined
  return {
    ...(distinctIp && { distinct_ip: distinctIp }),
    ...(events && { events }),
    ...(ipEvents && { ip_events: ipEvents }),
  }
}

type NetworkFields = Pick<
  FingerprintEvent,
  | 'ip_info'
  | 'vpn'
  | 'vpn_confidence'
  | 'vpn_origin_timezone'
  | 'vpn_origin_country'
  | 'vpn_methods'
  | 'proxy'
  | 'proxy_confidence'
  | 'ip_blocklist'
>

/** v4's network fields from Tessera's ipInfo, datacenter, vpn, proxy and tor signals (absent on older events). */
function networkOf(signals: StoredEvent['signals']): NetworkFields {
  const info = resultOf(signals.ipInfo)
  const datacenter = resultOf(signals.datacenter)
  const vpn = signals.vpn
  const methods = isRecord(vpn?.details?.methods) ? vpn.details.methods : undefined
  const text = (value: Json | undefined) => (typeof value === 'string' && value ? value : undefined)
  const number = (value: Json | undefined) => (typeof value === 'number' ? value : undefined)
  const tor = resultOf(signals.tor)
  const proxy = resultOf(signals.proxy)
  let ipInfo: FingerprintEvent['ip_info']
  if (isRecord(info) && typeof info.address === 'string') {
    const countryCode = text(info.countryCode)
    const geolocation = countryCode
      ? {
          latitude: number(info.latitude),
          longitude: number(info.longitude),
          timezone: text(info.timezone),
          city_name: text(info.city),
          country_code: countryCode,
          country_name: text(info.countryName),
          // v4's subdivisions need an ISO code the data does not have: the region stays in /api/v1's ipInfo.
        }
      : undefined
    const asn = number(info.asn)
    const version = {
      address: info.address,
      ...(geolocation && { geolocation }),
      ...(asn !== undefined && { asn: String(asn) }),
      ...(text(info.asnOrganization) && { asn_name: text(info.asnOrganization) }),
      ...(text(info.asnType) && { asn_type: text(info.asnType) }),
      ...(typeof datacenter === 'boolean' && { datacenter_result: datacenter }),
      ...(datacenter === true &&
        text(signals.datacenter?.kind) && { datacenter_name: signals.datacenter?.kind }),
    }
    ipInfo = info.version === 6 ? { v6: version } : { v4: version }
  }
  return {
    ...(ipInfo && { ip_info: ipInfo }),
    ...(typeof vpn?.result === 'boolean' && {
      vpn: vpn.result,
      ...(vpn.confidence && { vpn_confidence: vpn.confidence }),
      ...(text(vpn.details?.originTimezone) && { vpn_origin_timezone: text(vpn.details?.originTimezone) }),
      ...(text(vpn.details?.originCountry) && { vpn_origin_country: text(vpn.details?.originCountry) }),
      ...(methods && {
        vpn_methods: {
          timezone_mismatch: methods.timezoneMismatch === true,
          public_vpn: methods.publicVpn === true,
          relay: methods.relay === true,
        },
      }),
    }),
    ...(typeof proxy === 'boolean' && {
      proxy,
      ...(signals.proxy?.confidence && { proxy_confidence: signals.proxy.confidence }),
    }),
    ...(typeof tor === 'boolean' && { ip_blocklist: { tor_node: tor } }),
  }
}

function isRecord(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
