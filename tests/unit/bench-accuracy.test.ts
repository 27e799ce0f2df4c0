// What bench:accuracy promises about its corpus, its replay schedule and its synthetic population:
// the figures it prints mean what its report says only while these hold.
import { describe, expect, it } from 'vitest'
import { schedule } from '../../bench/support/accuracy-arrival'
import { fingerprintCeiling } from '../../bench/support/accuracy-ceiling'
import { allCells, selectCells } from '../../bench/support/accuracy-cells'
import {
  buildCorpus,
  type DeviceState,
  deviceKey,
  type Profile,
  twinFields,
  twinPairs,
} from '../../bench/support/accuracy-corpus'
import { componentDependencies } from '../../bench/support/accuracy-dependencies'
import type { Recorded } from '../../bench/support/accuracy-output'
import { buildPopulation } from '../../bench/support/accuracy-population'
import {
  pairPrefix,
  pairScenarios,
  storageGoneScenarios,
  storageKeptScenarios,
} from '../../bench/support/accuracy-scenarios'

const scenarios = [...storageGoneScenarios, ...storageKeptScenarios]
const corpus = (seed: number) =>
  buildCorpus({
    size: 100,
    seed,
    changes: scenarios.map((scenario) => (profile: Profile) => scenario.change(profile.state, profile)),
  })

describe.each([19, 20])('the corpus of seed %i', (seed) => {
  const profiles = corpus(seed)

  it('gives every hardware group a look-alike, differing only in settings no change touches', () => {
    const groups = new Map<number, Profile[]>()
    for (const profile of profiles) groups.set(profile.group, [...(groups.get(profile.group) ?? []), profile])
    expect(Math.min(...[...groups.values()].map((members) => members.length))).toBeGreaterThanOrEqual(2)
    for (const [a, b] of twinPairs(profiles)) expect(a.group).toBe(b.group)
    for (const members of groups.values()) {
      const [first, ...rest] = members
      for (const other of rest) {
        const differing = (Object.keys(other.state) as (keyof DeviceState)[]).filter(
          (field) =>
            field !== 'address' &&
            field !== 'languages' &&
            JSON.stringify(other.state[field]) !== JSON.stringify(first?.state[field]),
        )
        expect(differing.every((field) => (twinFields as readonly string[]).includes(field))).toBe(true)
      }
    }
  })

  it('lists one language in about a third of the profiles', () => {
    const single = profiles.filter((profile) => profile.state.languages.length === 1).length
    expect(single).toBeGreaterThanOrEqual(30)
    expect(single).toBeLessThanOrEqual(37)
  })

  it('meets every pair of change kinds in at least ten profiles, and each pair changes two things', () => {
    expect(pairScenarios).toHaveLength(28)
    const met = new Map<string, number>()
    for (const scenario of storageGoneScenarios.filter((candidate) => candidate.labelFor))
      for (const profile of profiles) {
        const label = scenario.labelFor?.(profile) ?? ''
        met.set(label, (met.get(label) ?? 0) + 1)
        const changed = scenario.change(profile.state, profile)
        const fields = (Object.keys(changed) as (keyof DeviceState)[]).filter(
          (field) =>
            field !== 'address' && JSON.stringify(changed[field]) !== JSON.stringify(profile.state[field]),
        )
        // A family added and another removed: two changes of one field.
        const fonts = new Set([...changed.fonts, ...profile.state.fonts])
        const fontChanges = 2 * fonts.size - changed.fonts.length - profile.state.fonts.length
        const changes = fields.length - (fields.includes('fonts') ? 1 : 0) + fontChanges
        expect(changes, `${profile.name} ${label}`).toBe(2)
      }
    expect([...met.keys()].every((label) => label.startsWith(pairPrefix))).toBe(true)
    expect(met.size).toBe(28)
    expect(Math.min(...met.values())).toBeGreaterThanOrEqual(10)
    // Browser launches of a full run: first visits, revisits, kept revisits.
    expect(profiles.length * (2 + storageGoneScenarios.length)).toBeLessThanOrEqual(2_000)
  })

  it('never makes a profile a copy of another by any change', () => {
    const owner = new Map<string, string>()
    for (const profile of profiles)
      for (const scenario of scenarios) {
        const key = deviceKey(scenario.change(profile.state, profile))
        expect(owner.get(key) ?? profile.name).toBe(profile.name)
        owner.set(key, profile.name)
      }
  })
})

/** A made-up recording: components that follow known fields, so what the analysis finds is known. */
function recordingOf(profiles: Profile[]): Recorded[] {
  const components = (state: DeviceState) => ({
    zone: { value: state.timezone, duration: 1 },
    graphics: { value: `${state.gpu}:${state.screen.width}`, duration: 1 },
    fonts: { value: state.fonts, duration: 1 },
    constant: { value: 'same', duration: 1 },
  })
  const entry = (profile: Profile, state: DeviceState, phase: Recorded['phase'], scenario: string) => ({
    profile,
    state,
    phase,
    scenario,
    visit: { visitorId: '', requestId: '', confidence: 0, components: components(state) },
    event: undefined,
  })
  return profiles.flatMap((profile) => [
    entry(profile, profile.state, 'first', 'first visit'),
    ...storageGoneScenarios.map((scenario) =>
      entry(
        profile,
        scenario.change(profile.state, profile),
        'gone',
        scenario.labelFor?.(profile) ?? scenario.name,
      ),
    ),
    entry(profile, profile.state, 'kept', 'kept: nothing changed'),
  ])
}

describe('the replay', () => {
  const profiles = corpus(19).slice(0, 30)
  const recorded = recordingOf(profiles)

  it('works out what each component depends on from the recording alone', () => {
    const { fields } = componentDependencies(
      recorded.map((entry) => ({ state: entry.state, components: entry.visit.components })),
    )
    expect(fields.get('zone')).toEqual(['timezone'])
    expect(fields.get('fonts')).toEqual(['fonts'])
    expect(fields.get('constant')).toEqual([])
    // Neither the GPU path nor the screen ever changes alone: found from what still disagrees.
    expect(fields.get('graphics')?.length).toBeGreaterThan(0)
    expect(fields.get('graphics')?.every((field) => ['gpu', 'screen', 'fonts'].includes(field))).toBe(true)
  })

  it('draws a population of which no device is a corpus state', () => {
    const population = buildPopulation({ profiles, recorded }, 300, 5)
    const corpusStates = new Set(recorded.map((entry) => deviceKey(entry.state)))
    expect(population.devices).toHaveLength(300)
    expect(population.devices.some((device) => corpusStates.has(deviceKey(device.state)))).toBe(false)
    expect(new Set(population.devices.map((device) => device.address)).size).toBe(300)
  })

  it('meets one device at a time: its comebacks half an hour apart or more, newer browsers last', () => {
    const [stage] = schedule(recorded, 'one-at-a-time', 3)
    const steps = stage?.steps ?? []
    expect(steps).toHaveLength(recorded.length + 2 * profiles.length)
    for (const profile of profiles) {
      const own = steps.filter((step) => step.entry.profile.name === profile.name)
      expect(own[0]?.entry.phase).toBe('first')
      const labels = own.map((step) => step.label)
      const dark = labels.indexOf('dark mode switched')
      expect(dark).toBeLessThan(labels.indexOf('appearance switched back'))
      expect(labels.indexOf('appearance switched back')).toBeLessThan(
        labels.indexOf('appearance switched again'),
      )
      const bumped = own.map((step) => step.entry.state.versionBump > 0)
      expect(bumped.indexOf(true)).toBeGreaterThan(bumped.lastIndexOf(false))
      for (let index = 1; index < own.length; index++)
        expect((own[index]?.at ?? 0) - (own[index - 1]?.at ?? 0)).toBeGreaterThanOrEqual(30)
    }
  })

  it('selects cells by pattern', () => {
    expect(allCells).toHaveLength(12)
    expect(selectCells('shared/*').map((cell) => cell.name)).toEqual([
      'shared/first-visits-first/fresh',
      'shared/first-visits-first/populated',
      'shared/one-at-a-time/fresh',
      'shared/one-at-a-time/populated',
    ])
    expect(selectCells('*/*/populated')).toHaveLength(6)
    expect(() => selectCells('nowhere')).toThrow()
  })

  it('counts a revisit as beyond fingerprints when a stored device is as close to it as its first visit', () => {
    const [profile] = profiles as [Profile]
    const fonts = ['Arial', 'Courier New', 'DejaVu Sans', 'Georgia', 'Verdana']
    const print = (timezone: string, colorScheme: string, fontList = fonts) => ({
      timezone: { value: timezone, duration: 1 },
      colorScheme: { value: colorScheme, duration: 1 },
      fonts: { value: fontList, duration: 1 },
    })
    const visit = (components: Record<string, unknown>, phase: Recorded['phase'], scenario: string) => ({
      profile,
      state: profile.state,
      phase,
      scenario,
      visit: { visitorId: '', requestId: '', confidence: 0, components },
      event: undefined,
    })
    const recording: Recorded[] = [
      visit(print('Europe/Paris', 'light'), 'first', 'first visit'),
      visit(print('Asia/Tokyo', 'light'), 'gone', 'time zone'),
      visit(print('Europe/Paris', 'light', [...fonts, 'Ubuntu']), 'gone', 'font added'),
    ]
    const device = (components: Record<string, unknown>) => ({
      state: profile.state,
      components,
      address: '',
    })
    // Another time zone, all else alike: as close to the travelled revisit as its first visit.
    const sameButZone = device(print('America/Denver', 'light'))
    // The travelled one's very time zone, but dark: one facet further than the first visit.
    const darkInTokyo = device(print('Asia/Tokyo', 'dark'))
    // Other fonts altogether: the font added is close to the first visit, different from these.
    const otherFonts = device(print('Europe/Paris', 'light', ['Comic Sans MS', 'Impact', 'Tahoma']))
    expect(fingerprintCeiling(recording, [darkInTokyo, otherFonts])).toMatchObject({
      revisits: 2,
      ambiguous: 0,
    })
    const ceiling = fingerprintCeiling(recording, [darkInTokyo, otherFonts, sameButZone])
    expect(ceiling.ambiguous).toBe(1)
    expect(ceiling.byScenario.get('time zone')).toEqual({ revisits: 1, ambiguous: 1 })
  })
})
