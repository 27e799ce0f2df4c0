// The revisits of bench:accuracy: each is a new browser launch of a profile, with one ordinary
// change or two at once. Every change is a pure function of the profile, so runs are repeatable.
// Every pair of the eight single change kinds is a scenario too; each profile launches only a few
// of them (slots taking turns over the pairs), so every pair is met by about fourteen profiles.

import { seededRandom } from '../../tests/support/synthetic-devices'
import { addedLanguages, type DeviceState, type Profile, travelAddress, travelZones } from './accuracy-corpus'
import { optionalFamilies } from './accuracy-fonts'

type Change = (state: DeviceState, profile: Profile) => DeviceState

/** A choice made for one profile and one kind of change, the same on every run. */
function choose<T>(profile: Profile, salt: number, list: readonly T[]): T {
  const item = list[Math.floor(seededRandom(profile.index * 31 + salt)() * list.length)]
  if (item === undefined) throw new Error('choice from an empty list')
  return item
}

const nothing: Change = (state) => ({ ...state })
const versionBump: Change = (state) => ({ ...state, versionBump: state.versionBump + 1 })
/** A maximised window is restored to a smaller size; a smaller one is maximised. */
const windowSize: Change = (state) => {
  const maximised = state.window.width === state.screen.width
  const window = maximised
    ? { width: Math.round(state.screen.width * 0.75), height: Math.round((state.screen.height - 85) * 0.8) }
    : { width: state.screen.width, height: state.screen.height - 85 }
  return { ...state, window }
}
/** Travel: another time zone, and the address of another network. */
const timeZone: Change = (state, profile) => ({
  ...state,
  timezone: choose(profile, 1, travelZones),
  address: travelAddress(profile),
})
/** One more language at the end of the list; the primary language and the locale stay. */
const languageAdded: Change = (state, profile) => ({
  ...state,
  languages: [...state.languages, choose(profile, 2, addedLanguages)],
})
/** A family the profile never had (so a removal in the same revisit cannot take it back out). */
const fontAdded: Change = (state, profile) => ({
  ...state,
  fonts: [
    ...state.fonts,
    choose(
      profile,
      3,
      optionalFamilies.filter(
        (family) => !state.fonts.includes(family) && !profile.state.fonts.includes(family),
      ),
    ),
  ].sort(),
})
/** One of the profile's own families (never one just added); DejaVu, the system's default, stays. */
const fontRemoved: Change = (state, profile) => {
  const removed = choose(
    profile,
    4,
    state.fonts.filter((family) => family !== 'dejavu' && profile.state.fonts.includes(family)),
  )
  return { ...state, fonts: state.fonts.filter((family) => family !== removed) }
}
/** The system's appearance follows the time of day: light becomes dark, or dark light. */
const colorScheme: Change = (state) => ({
  ...state,
  colorScheme: state.colorScheme === 'light' ? 'dark' : 'light',
})
/** The page is zoomed one step, or the window moved to a display with another scale. */
const displayScale: Change = (state) => ({ ...state, scale: state.scale === 1 ? 1.25 : state.scale - 0.25 })
const both =
  (first: Change, second: Change): Change =>
  (state, profile) =>
    second(first(state, profile), profile)

export interface Scenario {
  name: string
  change: Change
  /** The name of one profile's revisit, when it is not `name` (the pair a slot gives the profile). */
  labelFor?: (profile: Profile) => string
}

/** The single change kinds, in the order pair names use. */
const singleKinds: [string, Change][] = [
  ['version', versionBump],
  ['window', windowSize],
  ['time zone', timeZone],
  ['language added', languageAdded],
  ['font added', fontAdded],
  ['font removed', fontRemoved],
  ['dark mode', colorScheme],
  ['display scale', displayScale],
]

/** The prefix of every pair scenario's name: the report adds them up as "two changes (all pairs)". */
export const pairPrefix = 'two changes: '

/** All 28 pairs of single change kinds. */
export const pairScenarios: Scenario[] = singleKinds.flatMap(([firstName, first], index) =>
  singleKinds.slice(index + 1).map(([secondName, second]) => ({
    name: `${pairPrefix}${firstName} + ${secondName}`,
    change: both(first, second),
  })),
)

/** Pair launches per profile. Slot k of profile i is pair (4i + k) mod 28: the slots of a profile
 *  are four consecutive pairs, and every pair is met by 14 or 15 of 100 profiles. */
export const pairSlots = 4

function pairFor(profile: Profile, slot: number): Scenario {
  const pair = pairScenarios[(pairSlots * profile.index + slot) % pairScenarios.length]
  if (!pair) throw new Error('No pair scenario')
  return pair
}

/** The slots as scenarios: each profile's revisit in a slot is its own pair of that slot. */
export const pairSlotScenarios: Scenario[] = Array.from({ length: pairSlots }, (_, slot) => ({
  name: `two changes (slot ${slot + 1})`,
  change: (state, profile) => pairFor(profile, slot).change(state, profile),
  labelFor: (profile) => pairFor(profile, slot).name,
}))

/** Storage gone: a new launch with an empty profile directory. */
export const storageGoneScenarios: Scenario[] = [
  { name: 'nothing changed (launch A)', change: nothing },
  { name: 'nothing changed (launch B)', change: nothing },
  { name: 'browser version bump', change: versionBump },
  { name: 'window size', change: windowSize },
  { name: 'time zone', change: timeZone },
  { name: 'language added', change: languageAdded },
  { name: 'font family added', change: fontAdded },
  { name: 'font family removed', change: fontRemoved },
  { name: 'dark mode switched', change: colorScheme },
  { name: 'display scale changed', change: displayScale },
  { name: 'time zone + language', change: both(timeZone, languageAdded) },
  { name: 'window + version', change: both(windowSize, versionBump) },
  ...pairSlotScenarios,
]

/** Storage kept: a new launch on the first visit's own profile directory (the token path);
 *  each profile revisits once, the scenarios taking turns. */
export const storageKeptScenarios: Scenario[] = [
  { name: 'kept: nothing changed', change: nothing },
  { name: 'kept: time zone', change: timeZone },
  { name: 'kept: font family added', change: fontAdded },
]

export const quickGoneScenarios = storageGoneScenarios.filter((scenario) =>
  [
    'nothing changed (launch A)',
    'nothing changed (launch B)',
    'time zone',
    'dark mode switched',
    'two changes (slot 1)',
  ].includes(scenario.name),
)
export const quickKeptScenarios = storageKeptScenarios
