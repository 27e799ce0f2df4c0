import { getCountry, getTimezone } from 'countries-and-timezones'
import type { Confidence, IpInfo, NetworkSignals } from '@/contracts/signals'
import { classifyNetwork } from '../network/hosting-networks'
import type { AddressInfo } from '../network/network-data'
import type { ComponentReader } from './read-components'
import type { RequestEvidence } from './request-evidence'

/** The IANA zones a country uses ([] for a code the zone data does not know). */
function zonesOf(code: string): string[] {
  return getCountry(code as Parameters<typeof getCountry>[0])?.timezones ?? []
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' })

function countryName(code: string): string | null {
  try {
    return regionNames.of(code) ?? null
  } catch {
    return null
  }
}

/** The network signals of one request: its address looked up, the browser's time zone, the forwarding headers. */
export function detectNetwork(
  info: AddressInfo | null,
  read: ComponentReader,
  evidence: RequestEvidence | undefined,
): NetworkSignals {
  const network = classifyNetwork(info?.autonomousSystem ?? null)
  const geo = info?.geolocation ?? null
  const zones = geo ? zonesOf(geo.countryCode) : []
  const ipInfo: IpInfo | null = info && {
    address: info.address,
    version: info.version,
    countryCode: geo?.countryCode ?? null,
    countryName: geo ? countryName(geo.countryCode) : null,
    region: geo?.region ?? null,
    city: geo?.city ?? null,
    latitude: geo?.latitude ?? null,
    longitude: geo?.longitude ?? null,
    timezone: zones.length === 1 ? (zones[0] ?? null) : null,
    asn: info.autonomousSystem?.asn ?? null,
    asnOrganization: info.autonomousSystem?.organization || null,
    asnType: info.autonomousSystem ? (network?.kind ?? 'isp') : null,
  }
  return {
    ipInfo: {
      result: ipInfo,
      reasons: !info
        ? []
        : !geo && !info.autonomousSystem
          ? ['The address is in none of the network databases (a private or unannounced address).']
          : [],
    },
    datacenter:
      network?.kind === 'hosting'
        ? {
            result: true,
            kind: network.name,
            reasons: [
              `The address belongs to ${network.name}${network.by === 'name' ? ' (by its registered name)' : ''}, a hosting network (AS${info?.autonomousSystem?.asn}).`,
            ],
          }
        : { result: false, reasons: [] },
    vpn: detectVpn(read.string('timezone'), geo?.countryCode ?? null, network),
    proxy: detectProxy(evidence),
    tor: info?.torExit
      ? { result: true, reasons: ['The address is a Tor exit relay (the configured exit list).'] }
      : { result: false, reasons: [] },
  }
}

/** Zone offsets change only at daylight-saving switches: each is worked out once per this long. */
const OFFSET_TTL_MS = 15 * 60_000
const offsets = new Map<string, { minutes: number | undefined; until: number }>()

/** Minutes east of UTC, now, in a zone; undefined for one the runtime does not know. */
function currentOffset(zone: string, now = Date.now()): number | undefined {
  const cached = offsets.get(zone)
  if (cached && cached.until > now) return cached.minutes
  const minutes = offsetNow(zone)
  // Bounded: only zones a request named that the runtime knows are kept (a few hundred exist).
  if (minutes !== undefined || offsets.size < 1000) offsets.set(zone, { minutes, until: now + OFFSET_TTL_MS })
  return minutes
}

function offsetNow(zone: string): number | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      timeZoneName: 'longOffset',
    }).formatToParts(new Date())
    const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? ''
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
    if (!match) return name === 'GMT' ? 0 : undefined
    return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]))
  } catch {
    return undefined
  }
}

/**
 * Fingerprint's timezone method: the browser's time zone against the address's country. It agrees
 * when the zone is one the country uses, or keeps the same time now as one of the country's zones
 * (Europe/Berlin in Switzerland); otherwise the hours between them set the confidence. A network
 * run by a VPN service says so whatever the zone; a relay (iCloud Private Relay, WARP) hides the
 * address but keeps the region.
 */
function detectVpn(
  zone: string | undefined,
  country: string | null,
  network: ReturnType<typeof classifyNetwork>,
): NetworkSignals['vpn'] {
  const reasons: string[] = []
  let mismatchHours = 0
  // UTC and the Etc/ zones say nothing of a place: Tor Browser, Mullvad Browser, Firefox resisting
  // fingerprinting and many servers report them (the tor and datacenter signals cover those).
  const placeless = zone === undefined || /^(UTC|GMT|UCT|Universal|Zulu|Etc\/)/.test(zone)
  const usedThere =
    zone !== undefined &&
    country !== null &&
    ((getTimezone(zone)?.countries as readonly string[] | undefined)?.includes(country) ?? false)
  if (zone && country && !placeless && !usedThere) {
    const offset = currentOffset(zone)
    const there = zonesOf(country)
      .map((other) => currentOffset(other))
      .filter((value) => value !== undefined)
    if (offset !== undefined && there.length > 0 && !there.includes(offset)) {
      mismatchHours = Math.min(...there.map((other) => Math.abs(other - offset))) / 60
      reasons.push(
        `The browser's time zone ${zone} is not one ${countryName(country) ?? country} (the address's country) uses: ${mismatchHours.toFixed(mismatchHours % 1 ? 1 : 0)} h from the nearest.`,
      )
    }
  }
  const publicVpn = network?.kind === 'vpn'
  const relay = network?.kind === 'relay'
  if (publicVpn) reasons.push(`The address belongs to ${network.name}, a VPN service.`)
  if (relay) reasons.push(`The address belongs to ${network.name}, a relay that hides the browser's address.`)
  const timezoneMismatch = mismatchHours > 0
  const confidence: Confidence =
    (publicVpn && network.by === 'list') || mismatchHours >= 3
      ? 'high'
      : publicVpn || relay || mismatchHours >= 1
        ? 'medium'
        : timezoneMismatch
          ? 'low'
          : 'high'
  return {
    result: timezoneMismatch || publicVpn || relay,
    confidence,
    details: {
      originTimezone: zone ?? null,
      originCountry: country,
      methods: { timezoneMismatch, publicVpn, relay },
    },
    reasons,
  }
}

/**
 * A proxy between the browser and Tessera's own proxies: forwarding headers that no trusted proxy
 * added (a forward proxy's, or a forged one: either way not the browser's own connection), or a
 * Via on a connection that came straight from the client.
 */
function detectProxy(evidence: RequestEvidence | undefined): NetworkSignals['proxy'] {
  const forwarding = evidence?.forwarding
  const reasons: string[] = []
  if (forwarding && forwarding.untrusted > 0)
    reasons.push(
      `The request carried ${forwarding.untrusted} forwarding header ${forwarding.untrusted === 1 ? 'entry' : 'entries'} that no trusted proxy added.`,
    )
  if (forwarding?.via) reasons.push('The request carried a Via header that no trusted proxy added.')
  const detected = reasons.length > 0
  // Fingerprint's convention: "high" when nothing is found, too.
  return { result: detected, confidence: !detected || forwarding?.via ? 'high' : 'medium', reasons }
}
