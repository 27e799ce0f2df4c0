import 'server-only'
import type { FingerprintEvent } from '@/contracts/fingerprint-v4'
import type { StoredEvent } from '@/contracts/server-api'

/** What the stored event does not carry itself: the visitor's history on the site, the suspect flag. */
export interface EventContext {
  /** The visitor's first event on the event's site, at or before this one. */
  firstSeenAt?: string | null
  /** The visitor's event on the site just before this one; none on its first. */
  lastSeenAt?: string | null
  /** Set through PATCH /v4/events/{id}; null or absent until then. */
  suspect?: boolean | null
  /** The analyst's label of the visitor (the console): `suspect` where the integrator set none. */
  visitorLabel?: 'fraud' | 'good' | null
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
  const suspect =
    context.suspect ??
    (context.visitorLabel === 'fraud' ? true : context.visitorLabel === 'good' ? false : null)
  return {
    event_id: event.requestId,
    timestamp: Date.parse(event.createdAt),
    ...(event.linkedId !== null && { linked_id: event.linkedId }),
    ...(suspect !== null && { suspect }),
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

type Signals = StoredEvent['signals']

/** v4's `bot`, and `bot_type` when a bot was detected and Tessera named its kind. */
function botOf(bot: Signals['bot']): Pick<FingerprintEvent, 'bot' | 'bot_type'> {
  if (!bot) return {}
  return {
    bot: BOT_RESULTS[bot.result],
    ...(bot.result !== 'notDetected' && bot.kind && { bot_type: slug(bot.kind) }),
  }
}

function flag<Name extends string>(
  name: Name,
  signal: { result: boolean } | undefined,
): Partial<Record<Name, boolean>> {
  return signal ? ({ [name]: signal.result } as Record<Name, boolean>) : {}
}

/** `Selenium/WebDriver` → `selenium_webdriver`, in the style of v4's `bot_type` values. */
function slug(kind: string): string {
  return kind
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
}

type Windows = { '5m': number; '1h': number; '24h': number }
const windows = ({ '5m': five, '1h': hour, '24h': day }: Windows) => ({
  '5_minutes': five,
  '1_hour': hour,
  '24_hours': day,
})

/**
 * Tessera's `{ events, distinctIps }` per 5m/1h/24h as v4's `events` and `distinct_ip`, and the
 * address's own events (ipVelocity) as `ip_events`.
 */
function velocityOf(
  velocity: Signals['velocity'],
  ipVelocity: Signals['ipVelocity'],
): FingerprintEvent['velocity'] {
  if (!velocity) return undefined
  const address = ipVelocity?.result?.address
  return {
    distinct_ip: windows(velocity.result.distinctIps),
    events: windows(velocity.result.events),
    ...(address && { ip_events: windows(address.events) }),
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
function networkOf({ ipInfo: info, datacenter, vpn, proxy, tor }: Signals): NetworkFields {
  const place = info?.result
  let ipInfo: FingerprintEvent['ip_info']
  if (place) {
    const geolocation = place.countryCode
      ? {
          latitude: place.latitude ?? undefined,
          longitude: place.longitude ?? undefined,
          timezone: place.timezone || undefined,
          city_name: place.city || undefined,
          country_code: place.countryCode,
          country_name: place.countryName || undefined,
          // v4's subdivisions need an ISO code the data does not have: the region stays in /api/v1's ipInfo.
        }
      : undefined
    const version = {
      address: place.address,
      ...(geolocation && { geolocation }),
      ...(place.asn !== null && { asn: String(place.asn) }),
      ...(place.asnOrganization && { asn_name: place.asnOrganization }),
      ...(place.asnType && { asn_type: place.asnType }),
      ...(datacenter && { datacenter_result: datacenter.result }),
      ...(datacenter?.result && datacenter.kind && { datacenter_name: datacenter.kind }),
    }
    ipInfo = place.version === 6 ? { v6: version } : { v4: version }
  }
  const methods = vpn?.details.methods
  return {
    ...(ipInfo && { ip_info: ipInfo }),
    ...(vpn && {
      vpn: vpn.result,
      vpn_confidence: vpn.confidence,
      ...(vpn.details.originTimezone && { vpn_origin_timezone: vpn.details.originTimezone }),
      ...(vpn.details.originCountry && { vpn_origin_country: vpn.details.originCountry }),
      ...(methods && {
        vpn_methods: {
          timezone_mismatch: methods.timezoneMismatch,
          public_vpn: methods.publicVpn,
          relay: methods.relay,
        },
      }),
    }),
    ...(proxy && { proxy: proxy.result, proxy_confidence: proxy.confidence }),
    ...(tor && { ip_blocklist: { tor_node: tor.result } }),
  }
}
