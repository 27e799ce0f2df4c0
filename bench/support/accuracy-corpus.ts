// The device profiles of bench:accuracy, generated deterministically: groups of two or three
// profiles that share one "hardware" (font set, GPU path, screen), where the members of a group are
// twins (look-alikes) differing only in one or two settings that no change scenario touches.
import { seededRandom } from '../../tests/support/synthetic-devices'
import { type FontFamily, optionalFamilies } from './accuracy-fonts'

export type Gpu = 'webgl2' | 'webgl1' | 'none'
export interface Size {
  width: number
  height: number
}

/** Everything a launch of a profile is made of; scenarios derive changed states from it. */
export interface DeviceState {
  fonts: FontFamily[]
  gpu: Gpu
  screen: Size
  window: Size
  scale: number
  /** Primary language: navigator.language and Intl's locale. */
  locale: string
  /** navigator.languages; the first entry is `locale`. */
  languages: string[]
  timezone: string
  colorScheme: 'light' | 'dark'
  reducedMotion: 'reduce' | 'no-preference'
  contrast: 'more' | 'no-preference'
  forcedColors: 'active' | 'none'
  /** Major versions above the installed Chromium the browser claims (user agent and client hints). */
  versionBump: number
  /** Client address, sent as X-Forwarded-For; not part of the device. */
  address: string
}

export interface Profile {
  name: string
  index: number
  group: number
  state: DeviceState
}

/**
 * Settings no scenario changes, set once by a person (accessibility, the primary language):
 * twins differ only in these. The appearance and the display scale change between visits (the
 * "dark mode switched" and "display scale changed" scenarios), so they never tell twins apart.
 */
export const twinFields = ['locale', 'reducedMotion', 'contrast', 'forcedColors'] as const

const screens: Size[] = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1536, height: 864 },
  { width: 1680, height: 1050 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
]
const scales = [1, 1.25, 1.5, 2]
const gpus: Gpu[] = ['webgl2', 'webgl1', 'none']
/** Primary locales and the further languages people with them commonly list. */
const localeLanguages: Record<string, string[]> = {
  'en-US': ['en'],
  'en-GB': ['en', 'en-US'],
  'de-DE': ['de', 'en-US', 'en'],
  'fr-FR': ['fr', 'en-US', 'en'],
  'ja-JP': ['ja', 'en-US', 'en'],
  'pt-BR': ['pt', 'en-US', 'en'],
  'ko-KR': ['ko', 'en-US', 'en'],
  'zh-CN': ['zh', 'en'],
}
const locales = Object.keys(localeLanguages)
/** Languages a "language added" revisit appends: no profile starts with any of them. */
export const addedLanguages = ['it', 'nl', 'pl', 'sv', 'tr', 'uk']
export const homeZones = [
  'Europe/Berlin',
  'Europe/London',
  'Europe/Madrid',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Australia/Sydney',
  'Africa/Johannesburg',
]
/** Where travellers go: no profile starts in these zones. */
export const travelZones = [
  'Pacific/Auckland',
  'Asia/Dubai',
  'America/Denver',
  'Europe/Istanbul',
  'Asia/Bangkok',
  'America/Mexico_City',
]
/** Public-looking first octets of home networks; travel addresses use others. */
const homeOctets = [31, 45, 62, 77, 81, 89, 92, 109, 151, 178, 185, 203]
const travelOctets = [5, 37, 102, 196]

export type Random = () => number
const pick = <T>(random: Random, list: readonly T[]): T => {
  const item = list[Math.floor(random() * list.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

/** Every set of DejaVu and three optional families: all sets have four families, so a set with one
 *  added (five) or one removed (three) is never a set some profile starts with. */
function fontSets(): FontFamily[][] {
  const sets: FontFamily[][] = []
  const n = optionalFamilies.length
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++) {
        const chosen = [a, b, c].flatMap((index) => optionalFamilies[index] ?? [])
        const set: FontFamily[] = ['dejavu', ...chosen]
        sets.push(set.sort())
      }
  return sets
}

function windowFor(screen: Size, maximised: boolean, random: Random): Size {
  // A maximised window loses the browser's own toolbars; a smaller one is 60–85% of the screen.
  if (maximised) return { width: screen.width, height: screen.height - 85 }
  const fraction = 0.6 + Math.floor(random() * 6) * 0.05
  return { width: Math.round(screen.width * fraction), height: Math.round((screen.height - 85) * fraction) }
}

/** A third of browsers list one language (a "language added" comeback on them is common); the
 *  others list their locale and one or more further languages. */
export const singleLanguageShare = 1 / 3

export type Hardware = Pick<DeviceState, 'fonts' | 'gpu' | 'screen'>

/** A device's settings on `hardware`, drawn as the corpus draws them (also used by the replay's
 *  synthetic population, so it shares the corpus's distribution). */
export function baseState(
  hardware: Hardware,
  random: Random,
  single = random() < singleLanguageShare,
): DeviceState {
  const locale = pick(random, locales)
  const further = localeLanguages[locale] ?? []
  return {
    ...hardware,
    window: windowFor(hardware.screen, random() < 0.5, random),
    scale: pick(random, scales),
    locale,
    languages: single ? [locale] : [locale, ...further.slice(0, 1 + Math.floor(random() * further.length))],
    timezone: pick(random, homeZones),
    colorScheme: random() < 0.6 ? 'light' : 'dark',
    reducedMotion: random() < 0.8 ? 'no-preference' : 'reduce',
    contrast: random() < 0.85 ? 'no-preference' : 'more',
    forcedColors: random() < 0.9 ? 'none' : 'active',
    versionBump: 0,
    address: '',
  }
}

/** A twin of `state`: one or two twin fields set to another value, nothing else changed. */
function twinOf(state: DeviceState, random: Random): DeviceState {
  const twin = { ...state }
  const count = random() < 0.5 ? 1 : 2
  const fields = [...twinFields].sort(() => random() - 0.5).slice(0, count)
  for (const field of fields) {
    if (field === 'locale') {
      // Another primary language, the same further languages.
      twin.locale = pick(
        random,
        locales.filter((locale) => locale !== state.locale),
      )
      twin.languages = [twin.locale, ...state.languages.slice(1)]
    }
    if (field === 'reducedMotion')
      twin.reducedMotion = state.reducedMotion === 'reduce' ? 'no-preference' : 'reduce'
    if (field === 'contrast') twin.contrast = state.contrast === 'more' ? 'no-preference' : 'more'
    if (field === 'forcedColors') twin.forcedColors = state.forcedColors === 'active' ? 'none' : 'active'
  }
  return twin
}

export interface CorpusOptions {
  size: number
  /** Change scenarios whose results must never copy another profile. */
  changes: readonly ((profile: Profile) => DeviceState)[]
  /** Another seed draws another corpus of the same kind: a held-out check of what was tuned. */
  seed?: number
}

/** The state without its address: what identifies a device. */
export function deviceKey(state: DeviceState): string {
  const { address: _address, ...device } = state
  return JSON.stringify(device)
}

/** A hardware drawn as the corpus draws it: any font set, GPU path and screen. */
export function drawHardware(random: Random): Hardware {
  return { fonts: pick(random, fontSets()), gpu: pick(random, gpus), screen: pick(random, screens) }
}

/** Sizes of the hardware groups, three, two, two, … summing to `size`: never a group of one, so
 *  every hardware has a look-alike (a corpus of one profile aside). */
export function groupSizes(size: number): number[] {
  const cycle = [3, 2, 2]
  const sizes: number[] = []
  for (let total = 0; total < size; ) {
    const next = Math.min(cycle[sizes.length % cycle.length] ?? 2, size - total)
    sizes.push(next)
    total += next
  }
  const last = sizes.at(-1)
  // A remainder of one joins the group before it.
  if (last === 1 && sizes.length > 1) {
    sizes.pop()
    sizes[sizes.length - 1] = (sizes.at(-1) ?? 0) + 1
  }
  return sizes
}

/**
 * Builds the corpus: groups of two or three profiles (twins within a group) until `size`.
 * A candidate profile whose start or any changed state equals a state of an earlier profile is
 * drawn again, so no change ever makes a profile a copy of another one.
 */
export function buildCorpus(options: CorpusOptions): Profile[] {
  const random = seededRandom(options.seed ?? 14)
  const usedHardware = new Set<string>()
  const usedKeys = new Set<string>()
  const usedAddresses = new Set<string>()
  const profiles: Profile[] = []
  let singleLanguage = 0
  for (const [group, size] of groupSizes(options.size).entries()) {
    let hardware: Hardware
    do {
      hardware = drawHardware(random)
    } while (usedHardware.has(JSON.stringify(hardware)))
    usedHardware.add(JSON.stringify(hardware))
    // Half the groups are an office: the twins share one /24 (different hosts).
    const office = group % 2 === 0
    // Twins share their further languages, so one language is a group's trait: a group lists one
    // when the corpus so far is short of its share of single-language profiles.
    const single = singleLanguage + size / 2 <= singleLanguageShare * (profiles.length + size)
    if (single) singleLanguage += size
    let base: DeviceState | undefined
    for (let member = 0; member < size; member++) {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 200) throw new Error('The corpus generator cannot find a distinct profile')
        const state = base ? twinOf(base, random) : baseState(hardware, random, single)
        state.address = newAddress(random, usedAddresses, office && base ? base.address : undefined)
        const index = profiles.length
        const profile: Profile = { name: `p${String(index).padStart(3, '0')}-g${group}`, index, group, state }
        const keys = [state, ...options.changes.map((change) => change(profile))].map(deviceKey)
        if (keys.some((key) => usedKeys.has(key))) continue
        for (const key of keys) usedKeys.add(key)
        usedAddresses.add(state.address)
        profiles.push(profile)
        base ??= state
        break
      }
    }
  }
  return profiles
}

/** A home address on a network (/24) no address of `used` is on, or a new host of `sameNetworkAs`'s. */
export function newAddress(random: Random, used: Set<string>, sameNetworkAs?: string): string {
  for (;;) {
    const network = sameNetworkAs
      ? sameNetworkAs.split('.').slice(0, 3).join('.')
      : `${pick(random, homeOctets)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
    const address = `${network}.${2 + Math.floor(random() * 250)}`
    if (!used.has(address) && (sameNetworkAs || ![...used].some((other) => other.startsWith(`${network}.`))))
      return address
  }
}

/** A travel address for `profile`: another network, the same on every run. */
export function travelAddress(profile: Profile): string {
  const random = seededRandom(1000 + profile.index)
  const octet = pick(random, travelOctets)
  return `${octet}.${profile.index % 256}.${Math.floor(random() * 256)}.${2 + Math.floor(random() * 250)}`
}

/** Pairs of profiles on one hardware that differ only in one or two twin fields. */
export function twinPairs(profiles: readonly Profile[]): [Profile, Profile][] {
  const pairs: [Profile, Profile][] = []
  for (let a = 0; a < profiles.length; a++)
    for (let b = a + 1; b < profiles.length; b++) {
      const left = profiles[a]
      const right = profiles[b]
      if (!left || !right) continue
      // The first language is the locale (a twin field); the further ones are compared apart.
      const differing = (Object.keys(left.state) as (keyof DeviceState)[]).filter((field) =>
        field === 'languages'
          ? JSON.stringify(left.state.languages.slice(1)) !== JSON.stringify(right.state.languages.slice(1))
          : field !== 'address' && JSON.stringify(left.state[field]) !== JSON.stringify(right.state[field]),
      )
      const onlyTwinFields = differing.every((field) => (twinFields as readonly string[]).includes(field))
      if (differing.length > 0 && differing.length <= 2 && onlyTwinFields) pairs.push([left, right])
    }
  return pairs
}
