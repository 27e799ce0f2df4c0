// How far a fingerprint can carry the populated cells: for each storage-gone revisit, is there a
// stored synthetic device at least as close to it as the device's own first visit, on every facet?
// Such a device agrees with the revisit wherever the first visit does, so no method that reads only
// the fingerprint can prefer the device over it: only what is not in the fingerprint (when each was
// last seen, the address) can. The share of revisits without one is a ceiling on what fingerprints
// alone reach on that population, whatever the model; the populated cells' figures read against it.
import type { ComponentResult } from '../../src/contracts/identify'
import { facets } from '../../src/server/identification/component-model'
import { noVolatility } from '../../src/server/identification/device-volatility'
import {
  type FingerprintProfile,
  profileComponents,
} from '../../src/server/identification/fingerprint-profile'
import { compareFacets, LEVELS } from '../../src/server/identification/score-evidence'
import type { Recorded } from './accuracy-output'
import type { SyntheticDevice } from './accuracy-population'

export interface Ceiling {
  revisits: number
  /** Revisits a stored synthetic device is at least as close to as the device's first visit. */
  ambiguous: number
  byScenario: Map<string, { revisits: number; ambiguous: number }>
}

const facetList = Object.entries(facets)

interface Print {
  profile: FingerprintProfile
  /** One key per facet (its members' digests): equal keys, an exact facet. */
  keys: string[]
}

function printOf(components: Record<string, unknown>): Print {
  const profile = profileComponents(components as Record<string, ComponentResult>)
  const keys = facetList.map(([, model]) =>
    model.members.map((name) => profile.digests[name] ?? '').join(','),
  )
  return { profile, keys }
}

/** Each facet's level (by index in LEVELS) of `other` against `current`. */
function levels(current: Print, other: Print): Map<string, number> {
  const stored = { ...other.profile, previous: {}, volatility: noVolatility }
  return new Map(
    compareFacets(current.profile, stored).map((facet) => [facet.facet, LEVELS.indexOf(facet.level)]),
  )
}

/** The facets (by index) whose keys differ between two prints. */
const apart = (one: Print, other: Print) =>
  one.keys.flatMap((key, index) => (key === other.keys[index] ? [] : [index]))

/** Each profile's first visit, printed. */
const firstPrints = (recorded: readonly Recorded[]) =>
  new Map(
    recorded
      .filter((entry) => entry.phase === 'first')
      .map((entry) => [entry.profile.name, printOf(entry.visit.components)]),
  )

export function fingerprintCeiling(
  recorded: readonly Recorded[],
  devices: readonly SyntheticDevice[],
): Ceiling {
  const firsts = firstPrints(recorded)
  const synthetic = devices.map((device) => printOf(device.components))
  const ceiling: Ceiling = { revisits: 0, ambiguous: 0, byScenario: new Map() }
  for (const entry of recorded) {
    const first = firsts.get(entry.profile.name)
    if (entry.phase !== 'gone' || !first) continue
    const current = printOf(entry.visit.components)
    const own = apart(current, first)
    const ownLevels = levels(current, first)
    // A device as close: every facet the first visit agrees on, it agrees on too, and where the first
    // visit differs (a font added: close), it is no further off.
    const ambiguous = synthetic.some(
      (device) =>
        current.keys.every((key, index) => own.includes(index) || key === device.keys[index]) &&
        [...levels(current, device)].every(([facet, level]) => level <= (ownLevels.get(facet) ?? 0)),
    )
    const scenario = ceiling.byScenario.get(entry.scenario) ?? { revisits: 0, ambiguous: 0 }
    scenario.revisits++
    ceiling.revisits++
    if (ambiguous) {
      scenario.ambiguous++
      ceiling.ambiguous++
    }
    ceiling.byScenario.set(entry.scenario, scenario)
  }
  return ceiling
}

/**
 * The other side of the same limit, for the false merges of the populated cells: a profile's first
 * visit that differs from a stored synthetic device only in facets one of the profile's own
 * storage-gone comebacks changed, and at no further a level on any of them, is about as close to
 * that device as the comeback is to the profile's first visit. A method that finds such comebacks
 * is likely to take such a first visit for the stored device. It is a comparison of levels across
 * two pairs, not of their weights (the changed values' commonness and the devices' own change
 * rates differ), so it is an approximate floor. Returns, per profile so placed, the comeback that
 * places it and the synthetic devices (by index) that do.
 */
export function firstVisitFloor(
  recorded: readonly Recorded[],
  devices: readonly SyntheticDevice[],
): Map<string, { scenario: string; devices: number[] }> {
  const firsts = firstPrints(recorded)
  // Each profile's comebacks: which facets they changed from the first visit, and how far.
  const comebacks = new Map<
    string,
    { scenario: string; changed: Set<number>; levels: Map<string, number> }[]
  >()
  for (const entry of recorded) {
    const first = firsts.get(entry.profile.name)
    if (entry.phase !== 'gone' || !first) continue
    const current = printOf(entry.visit.components)
    const changed = new Set(apart(current, first))
    const list = comebacks.get(entry.profile.name) ?? []
    list.push({ scenario: entry.scenario, changed, levels: levels(current, first) })
    comebacks.set(entry.profile.name, list)
  }
  const synthetic = devices.map((device) => printOf(device.components))
  const placed = new Map<string, { scenario: string; devices: number[] }>()
  for (const [name, first] of firsts) {
    synthetic.forEach((device, index) => {
      const differ = apart(first, device)
      const candidates = comebacks
        .get(name)
        ?.filter((comeback) => differ.every((facet) => comeback.changed.has(facet)))
      if (!candidates?.length) return
      const far = levels(first, device)
      const like = candidates.find((comeback) =>
        [...far].every(([facet, level]) => level <= (comeback.levels.get(facet) ?? 0)),
      )
      if (!like) return
      const entry = placed.get(name) ?? { scenario: like.scenario, devices: [] }
      entry.devices.push(index)
      placed.set(name, entry)
    })
  }
  return placed
}
