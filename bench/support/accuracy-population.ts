// The synthetic population of the replay's `populated` cells: several thousand devices of the
// corpus's kind that a server already holds, built without browsers from what browsers recorded.
//
// Construction of one device:
// 1. Draw a state (hardware, window, scale, languages, time zone, appearance, accessibility) with
//    the corpus generator's own distributions (drawHardware, baseState). A state equal, on every
//    field, to a corpus profile or to any of its changed states (every scenario, recorded or not)
//    is drawn again.
// 2. Work out, from the recording, which state fields each component depends on
//    (accuracy-dependencies.ts) and group the components that depend on the same fields: a facet
//    of this construction (say the canvas and WebGL values, that follow the fonts and GPU path).
// 3. For each facet, take all its components from one recorded visit whose state agrees with the
//    drawn one on those fields (a random one of them). When no recorded visit does (a font set the
//    corpus never showed on that GPU path, a window size of its own), the whole facet comes from a
//    random donor among those agreeing on the most of its fields: the device then mixes facets of
//    several real launches, as a device the corpus does not have would.
// 4. A device whose stable components (those that never differ between launches of one state)
//    equal a recorded visit's is drawn again, so no synthetic device is a corpus device.
// Each gets a home address on a network (/24) no profile, traveller or other synthetic device uses.
import { seededRandom } from '../../tests/support/synthetic-devices'
import {
  baseState,
  type DeviceState,
  deviceKey,
  drawHardware,
  newAddress,
  type Profile,
  travelAddress,
} from './accuracy-corpus'
import { componentDependencies, type Field, projection, stateFields } from './accuracy-dependencies'
import type { Recorded } from './accuracy-output'
import { canonicalComponent } from './accuracy-report'
import { storageGoneScenarios, storageKeptScenarios } from './accuracy-scenarios'

export interface SyntheticDevice {
  state: DeviceState
  components: Record<string, unknown>
  address: string
}

export interface Population {
  devices: SyntheticDevice[]
  /** Facets (components grouped by the fields they depend on), for the report. */
  facets: { fields: Field[]; components: string[] }[]
  /** Share of facets taken from a donor that agreed on all their fields. */
  exactShare: number
  /** Draws refused because they equalled a corpus state or a recorded visit. */
  refused: number
}

export function buildPopulation(
  recording: { profiles: readonly Profile[]; recorded: readonly Recorded[] },
  count: number,
  seed: number,
): Population {
  const visits = recording.recorded.map((entry) => ({
    state: entry.state,
    components: entry.visit.components,
    values: fieldValues(entry.state),
  }))
  const dependencies = componentDependencies(visits)
  const byFields = new Map<string, { fields: Field[]; components: string[] }>()
  for (const [component, fields] of dependencies.fields) {
    const key = fields.join('+')
    const facet = byFields.get(key) ?? { fields, components: [] }
    facet.components.push(component)
    byFields.set(key, facet)
  }
  const facets = [...byFields.values()].map((facet) => {
    const donors = new Map<string, typeof visits>()
    for (const visit of visits) {
      const key = projection(visit.state, facet.fields)
      const list = donors.get(key)
      if (list) list.push(visit)
      else donors.set(key, [visit])
    }
    return { ...facet, donors }
  })

  const scenarios = [...storageGoneScenarios, ...storageKeptScenarios]
  const corpusStates = new Set([
    ...recording.recorded.map((entry) => deviceKey(entry.state)),
    ...recording.profiles.flatMap((profile) =>
      [profile.state, ...scenarios.map((scenario) => scenario.change(profile.state, profile))].map(deviceKey),
    ),
  ])
  const stable = [...dependencies.noise].filter(([, noise]) => noise === 0).map(([name]) => name)
  const stableKey = (components: Record<string, unknown>) =>
    stable.map((name) => canonicalComponent(components[name])).join('\u0000')
  const recordedDevices = new Set(visits.map((visit) => stableKey(visit.components)))
  const usedAddresses = new Set(
    recording.recorded.flatMap((entry) => [entry.state.address, travelAddress(entry.profile)]),
  )

  const random = seededRandom(seed)
  const choose = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const devices: SyntheticDevice[] = []
  let exact = 0
  let refused = 0
  while (devices.length < count) {
    const state = baseState(drawHardware(random), random)
    if (corpusStates.has(deviceKey(state))) {
      refused++
      continue
    }
    const components: Record<string, unknown> = {}
    const values = fieldValues(state)
    let exactFacets = 0
    for (const facet of facets) {
      const matching = facet.donors.get(projection(state, facet.fields))
      if (matching) exactFacets++
      const donor = choose(matching ?? closestDonors(visits, values, facet.fields))
      for (const name of facet.components)
        if (donor.components[name] !== undefined) components[name] = donor.components[name]
    }
    if (recordedDevices.has(stableKey(components))) {
      refused++
      continue
    }
    exact += exactFacets
    state.address = newAddress(random, usedAddresses)
    usedAddresses.add(state.address)
    devices.push({ state, components, address: state.address })
  }
  return {
    devices,
    facets: facets.map(({ fields, components }) => ({ fields, components })),
    exactShare: count ? exact / (count * facets.length) : 1,
    refused,
  }
}

const fieldValues = (state: DeviceState) =>
  new Map(stateFields.map((field) => [field, JSON.stringify(state[field])]))

/** The recorded visits that agree with a state (its `fieldValues`) on the most of `fields`. */
function closestDonors<T extends { values: Map<Field, string> }>(
  visits: readonly T[],
  values: Map<Field, string>,
  fields: Field[],
): T[] {
  const agreement = (visit: T) =>
    fields.filter((field) => visit.values.get(field) === values.get(field)).length
  const scores = visits.map(agreement)
  const best = Math.max(...scores)
  return visits.filter((_, index) => scores[index] === best)
}
