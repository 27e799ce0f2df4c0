// The synthetic traffic of bench:scale: who the visitors are (device, addresses, site, account,
// human or bot) and how often each comes back. Every visitor follows from its index alone, so the
// loader (scale-load.ts) and the identify load (scale-identify.ts) agree on each of them: a
// returning visitor of the identify load sends the very components its stored events hold.
// No table layouts here; scale-load.ts alone knows those.
import { createHash } from 'node:crypto'
import { getCountry } from 'countries-and-timezones'
import type { ComponentResult } from '../../src/contracts/identify'
import { networkOf } from '../../src/server/identification/network-of'
import { classifyNetwork } from '../../src/server/network/hosting-networks'
import { type AddressInfo, lookUpAddress } from '../../src/server/network/network-data'
import { standardOffset } from '../../src/server/signals/detect-tampering'
import { seededRandom } from '../../tests/support/synthetic-devices'
import { BASE_COMPONENTS } from './scale-snapshot'

/** Zipf-like returns: the visitor of rank r comes back in proportion to r^-0.6 (the busiest of 1 M about 14 k times). */
const RETURN_EXPONENT = 0.6
/** Addresses that many visitors share (an office, a university, a carrier's NAT), the first the busiest. */
const SHARED_ADDRESSES = 16

export type VisitorKind = 'human' | 'bot' | 'crawler'

export interface Address {
  ip: string
  /** As matching groups addresses (network-of.ts): the /24. */
  network: string
  /** What the offline network data says of the address (null: nothing). */
  info: AddressInfo | null
}

export interface Visitor {
  index: number
  /** Shaped as the server's own (20 URL-safe characters). */
  id: string
  kind: VisitorKind
  /** Only the components that differ from BASE_COMPONENTS. */
  variation: Record<string, ComponentResult>
  /** Visitors of one class and time zone get the same device signals (bot, tampering, VM…). */
  deviceClass: string
  home: Address
  /** A second address (a phone on a carrier network) some of the visits come from. */
  mobile: Address | null
  /** 0 is the default site. */
  site: number
  /** The integrator's account ID, for the visitors who have one (sent as linkedId). */
  linkedId: string | null
  /** The browser ID of the visitor's token; null for a browser that keeps no storage. */
  browserId: string | null
  /** Seen only before the retention period: retention removes the visitor with its events. */
  gone: boolean
  /** One of the spike day's visitors (gone too): all its visits on the oldest expired day. */
  spike: boolean
  /** Signs up on its first visit (people) or keeps trying on many (bots). */
  signsUp: boolean
  email: string
}

interface Network {
  base: string
  info: AddressInfo
  country: string
  timezone: string
  hosting: boolean
}

const oses = [
  { name: 'Windows', share: 0.6, ua: 'Windows NT 10.0; Win64; x64', platform: 'Win32' },
  { name: 'macOS', share: 0.85, ua: 'Macintosh; Intel Mac OS X 10_15_7', platform: 'MacIntel' },
  { name: 'Linux', share: 1, ua: 'X11; Linux x86_64', platform: 'Linux x86_64' },
] as const
const gpus: Record<string, string[]> = {
  Windows: [
    'NVIDIA GeForce RTX 3060',
    'Intel(R) UHD Graphics 620',
    'AMD Radeon RX 6600',
    'NVIDIA GeForce GTX 1650',
  ],
  macOS: ['Apple M1', 'Apple M2', 'Apple M3', 'Intel Iris Plus Graphics'],
  Linux: ['Mesa Intel(R) UHD Graphics 620', 'NVIDIA GeForce RTX 3060', 'AMD Radeon RX 6600'],
}
// Each system's families among the agent's candidates, in the agent's order (sources/fonts.ts): it
// reports no other family, and reports them in that order.
const fontPools: Record<string, string[]> = {
  Windows: [
    'Bahnschrift',
    'Calibri',
    'Cambria',
    'Consolas',
    'Ebrima',
    'Franklin Gothic',
    'Gabriola',
    'Segoe UI',
  ],
  macOS: ['Helvetica Neue', 'Avenir Next', 'Futura', 'Geneva', 'Gill Sans', 'Menlo', 'Optima'],
  Linux: ['DejaVu Sans', 'Liberation Sans', 'Noto Sans', 'Roboto', 'Ubuntu', 'Open Sans', 'Lato'],
}

/**
 * The share of device classes on another JavaScript engine than the recorded Chromium's V8 (Safari's,
 * Firefox's, an older V8): about a quarter of the web's browsers. Their maths results and error
 * message are another engine's: made up here (the last digits of the results that differ between
 * engines, a message of another wording), so that no dictionary holds them.
 */
const OTHER_ENGINE_SHARE = 0.25
const otherEngine = {
  mathQuirks: [
    1.4473588658278524,
    709.889355822726,
    0.881373587019543,
    0.5493061443340548,
    0.46364760900080615,
    -0.8178819121159085,
    1.1752011936438016,
    -0.8390715290095379,
    1.5430806348152437,
    1.4214488238747245,
    0.7615941559557649,
    Math.E,
    1.7182818284590453,
    2.3978952727983707,
    4.641588833612778,
    1.9275814160560185e-50,
  ],
  errorStack: { message: 'null has no property probe', frame: 'gecko-webkit' },
}
const screens = [
  [1920, 1080],
  [1366, 768],
  [1536, 864],
  [2560, 1440],
  [1440, 900],
  [1680, 1050],
] as const
const locales: Record<string, string> = { DE: 'de-DE', FR: 'fr-FR', JP: 'ja-JP', BR: 'pt-BR', ES: 'es-ES' }
/** Where most people of a country with many time zones live (the data lists them alphabetically). */
const mainZones: Record<string, string> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  BR: 'America/Sao_Paulo',
  MX: 'America/Mexico_City',
  RU: 'Europe/Moscow',
  AU: 'Australia/Sydney',
  ID: 'Asia/Jakarta',
  CN: 'Asia/Shanghai',
  AR: 'America/Argentina/Buenos_Aires',
  KZ: 'Asia/Almaty',
}
const offsets = new Map<string, number>()
/** The clock's standard UTC offset in a time zone (slow to compute: remembered). */
function offsetOf(timezone: string): number {
  const known = offsets.get(timezone)
  if (known !== undefined) return known
  const offset = standardOffset(timezone) ?? 0
  offsets.set(timezone, offset)
  return offset
}
const names = ['alex', 'sam', 'maria', 'li', 'noah', 'emma', 'yuki', 'omar', 'ana', 'lukas']

/** An 11-character base-36 digest, like the agent's own hashes. */
function hash36(text: string): string {
  return createHash('md5').update(text).digest().readBigUInt64BE().toString(36).slice(0, 11)
}

function digest(text: string, length: number): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, length)
}

/** Public /24 networks the offline data places in a country, drawn once for a population. */
function drawNetworks(count: number): Network[] {
  const random = seededRandom(28)
  const networks: Network[] = []
  while (networks.length < count) {
    const first = 1 + Math.floor(random() * 222)
    if ([10, 100, 127, 169, 172, 192].includes(first)) continue
    const base = `${first}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.`
    const info = lookUpAddress(`${base}1`)
    const country = info?.geolocation?.countryCode
    if (!info || !country) continue
    const timezone = mainZones[country] ?? getCountry(country)?.timezones[0] ?? 'UTC'
    const hosting = classifyNetwork(info.autonomousSystem ?? null)?.kind === 'hosting'
    networks.push({ base, info, country, timezone, hosting })
  }
  return networks
}

function address(network: Network, host: number): Address {
  const ip = `${network.base}${host}`
  return { ip, network: networkOf(ip), info: { ...network.info, address: ip } }
}

/** How many events each visitor has: one each, the rest by rank (Zipf-like); they sum to `events`. */
function eventCounts(visitors: number, events: number): Uint32Array {
  const counts = new Uint32Array(visitors).fill(1)
  const extra = events - visitors
  let total = 0
  for (let rank = 1; rank <= visitors; rank++) total += rank ** -RETURN_EXPONENT
  let cumulative = 0
  let given = 0
  for (let index = 0; index < visitors; index++) {
    cumulative += (index + 1) ** -RETURN_EXPONENT
    const upTo = Math.round((extra * cumulative) / total)
    counts[index] = 1 + upTo - given
    given = upTo
  }
  return counts
}

/**
 * A spike on the oldest expired day: `events` events of `visitors` devices never seen again (a
 * campaign that came and went), what a retention pass removes whole, visitors and all.
 */
export interface Spike {
  events: number
  visitors: number
}

export interface Traffic {
  /** The site's own population (indexes 0 to visitors - 1): the identify load returns among them. */
  visitors: number
  /** The spike day's visitors follow the population's (indexes visitors to loaded - 1). */
  spike: Spike
  /** Every visitor the loader writes: the population's, then the spike's. */
  loaded: number
  /** Every event, the spike's included. */
  events: number
  /** Events per visitor index. */
  counts: Uint32Array
  visitor(index: number): Visitor
  /** BASE_COMPONENTS with the visitor's variation on top: what its browser sends. */
  components(visitor: Visitor): Record<string, ComponentResult>
  /** The address many visitors share (the busiest). */
  busyAddress: string
}

/**
 * The traffic of a population: `visitors` devices making `events` identifications in all, and a
 * spike's devices besides (none by default).
 */
export function createTraffic({
  visitors,
  events,
  spike = { events: 0, visitors: 0 },
}: {
  visitors: number
  events: number
  spike?: Spike
}): Traffic {
  const population = Math.min(visitors, events)
  const spikeVisitors = Math.min(spike.visitors, spike.events)
  const networks = drawNetworks(Math.min(80_000, Math.max(2_000, Math.round(population / 12))))
  const hosting = networks.filter((network) => network.hosting)
  const residential = networks.filter((network) => !network.hosting)
  const byCountry = new Map<string, Network[]>()
  for (const network of networks) {
    const list = byCountry.get(network.country) ?? []
    list.push(network)
    byCountry.set(network.country, list)
  }
  const counts = new Uint32Array(population + spikeVisitors)
  counts.set(eventCounts(population, events))
  // The spike's events shared out evenly, the first of its visitors taking one more each.
  for (let at = 0; at < spikeVisitors; at++)
    counts[population + at] =
      Math.floor(spike.events / spikeVisitors) + (at < spike.events % spikeVisitors ? 1 : 0)
  const sharedHost = (slot: number) => address(networks[slot] as Network, 1)
  const inSpike = (index: number) => index >= population && index < population + spikeVisitors

  const visitor = (index: number): Visitor => {
    const random = seededRandom(Math.imul(index + 1, 2_654_435_761) ^ 0x5ca1e)
    const roll = random()
    // Two of the busiest visitors are bots: scrapers return far more often than people.
    const kind: VisitorKind =
      index === 1 || index === 3 || (index > 3 && roll < 0.03) ? 'bot' : roll > 0.995 ? 'crawler' : 'human'
    const pick = <T>(options: readonly T[]) => options[Math.floor(random() * options.length)] as T
    // People browse from homes, a few through a VPN or a cloud host; bots from servers.
    const network = pick(
      kind === 'human' && random() < 0.97 ? residential : hosting.length > 0 ? hosting : networks,
    )
    const shared = kind === 'human' && index > 0 && random() < 0.01
    const home = shared
      ? sharedHost(Math.floor(random() ** 3 * SHARED_ADDRESSES))
      : address(network, 2 + Math.floor(random() * 253))
    const carrier = pick(byCountry.get(network.country) ?? [network])
    const mobile =
      kind === 'human' && random() < 0.3 && carrier ? address(carrier, 2 + Math.floor(random() * 253)) : null
    const deviceClass = Math.floor(random() * (kind === 'human' ? 64 : 8))
    const device = describeDevice(
      kind,
      deviceClass,
      index,
      kind === 'human' ? network.timezone : 'UTC',
      network,
    )
    const registered = kind === 'human' && (index === 0 || random() < 0.25)
    const name = pick(names)
    const siteRoll = random()
    return {
      index,
      id: digest(`scale-visitor-${index}`, 20),
      kind,
      variation: device.variation,
      deviceClass: `${kind}:${deviceClass}:${device.timezone}:${device.locale}`,
      home,
      mobile,
      site: index === 0 || siteRoll < 0.55 ? 0 : siteRoll < 0.8 ? 1 : siteRoll < 0.95 ? 2 : 3,
      linkedId: registered ? `user-${index}` : null,
      browserId: random() < (kind === 'human' ? 0.92 : 0.2) ? digest(`scale-browser-${index}`, 22) : null,
      gone: inSpike(index) || (kind === 'human' && index >= 1_000 && random() < 0.02),
      spike: inSpike(index),
      signsUp: registered || (kind === 'bot' && random() < 0.4),
      email: `${name}.${index}@mail.example`,
    }
  }

  return {
    visitors: population,
    spike: { events: spikeVisitors > 0 ? spike.events : 0, visitors: spikeVisitors },
    loaded: population + spikeVisitors,
    events: events + (spikeVisitors > 0 ? spike.events : 0),
    counts,
    visitor,
    components: (visitor) => ({ ...BASE_COMPONENTS, ...visitor.variation }),
    busyAddress: sharedHost(0).ip,
  }
}

const value = (v: ComponentResult extends infer R ? (R extends { value: infer V } ? V : never) : never) => ({
  value: v,
  duration: 0.1,
})

/**
 * The components that set this device apart: its class (OS, browser version, screen, GPU, cores)
 * is shared with many; driver, fonts, voices and window make most visitors unique, as they are.
 */
function describeDevice(
  kind: VisitorKind,
  deviceClass: number,
  index: number,
  timezone: string,
  network: Network,
) {
  const classRandom = seededRandom(1_000_003 * (deviceClass + 1) + kind.length)
  const own = seededRandom(index ^ 0x0b5e55ed)
  const osRoll = classRandom()
  const os = kind === 'human' ? (oses.find((entry) => osRoll < entry.share) ?? oses[0]) : oses[2]
  const version = 128 + Math.floor(classRandom() * 15)
  const gpuList = gpus[os.name] ?? []
  const gpu =
    kind === 'human' ? (gpuList[Math.floor(classRandom() * gpuList.length)] ?? 'SwiftShader') : 'SwiftShader'
  const [width, height] = screens[Math.floor(classRandom() * screens.length)] ?? [1920, 1080]
  const ratio = os.name === 'macOS' ? 2 : ([1, 1.25, 1.5][Math.floor(classRandom() * 3)] ?? 1)
  const cores = kind === 'human' ? ([4, 8, 12, 16][Math.floor(classRandom() * 4)] ?? 8) : 2
  const locale = locales[network.info.geolocation?.countryCode ?? ''] ?? 'en-US'
  const driver = Math.floor(own() * 40)
  const fonts = (fontPools[os.name] ?? []).filter(() => own() < 0.6)
  const voiceCount = os.name === 'Linux' ? 0 : Math.floor(own() * (os.name === 'macOS' ? 80 : 12))
  const share = own() < 0.5 ? 1 : 0.5 + Math.floor(own() * 40) / 100
  const outer = [Math.round(width * share), Math.round((height - 40) * share)]
  const browser = kind === 'bot' ? 'HeadlessChrome' : 'Chrome'
  const userAgent =
    kind === 'crawler'
      ? 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
      : `Mozilla/5.0 (${os.ua}) AppleWebKit/537.36 (KHTML, like Gecko) ${browser}/${version}.0.0.0 Safari/537.36`
  const variation: Record<string, ComponentResult> = {
    userAgent: value(userAgent),
    platform: value(os.platform),
    languages: value([locale, locale.slice(0, 2)]),
    timezone: value(timezone),
    timezoneOffset: value(offsetOf(timezone)),
    screen: value([width, height]),
    availableScreen: value([width, height - 40, 0, 0]),
    windowGeometry: value({
      outer,
      inner: [outer[0] ?? 0, (outer[1] ?? 0) - 85],
      position: share === 1 ? [0, 0] : [Math.floor(own() * 400), Math.floor(own() * 200)],
      viewport: 1,
    }),
    devicePixelRatio: value(ratio),
    hardwareConcurrency: value(cores),
    webdriver: value(kind === 'bot'),
    webglBasics: value({
      ...(BASE_COMPONENTS.webglBasics && 'value' in BASE_COMPONENTS.webglBasics
        ? (BASE_COMPONENTS.webglBasics.value as Record<string, string>)
        : {}),
      unmaskedRenderer: `ANGLE (${gpu} Direct3D11 vs_5_0 ps_5_0, D3D11-${driver})`,
    }),
    canvas: value({
      winding: true,
      text: hash36(`${gpu}|${driver}|${fonts.join()}`),
      geometry: hash36(`${gpu}|${driver}`),
    }),
    fonts: value(fonts),
    speechVoices: value(
      Array.from({ length: voiceCount }, (_, at) => hash36(`${os.name} voice ${at}`)).sort(),
    ),
    audio: value(124.04347527516074 + (driver % 9) / 1000),
    // Its own draw, so the other draws (and every earlier run's traffic) stay as they were.
    ...(kind === 'human' &&
      seededRandom(7_919 * (deviceClass + 1))() < OTHER_ENGINE_SHARE && {
        mathQuirks: value(otherEngine.mathQuirks),
        errorStack: value(otherEngine.errorStack),
      }),
  }
  return { variation, locale, timezone }
}
