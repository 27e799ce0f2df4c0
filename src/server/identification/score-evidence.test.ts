import { describe, expect, it } from 'vitest'
import { populationOf } from '../../../tests/support/model-population'
import {
  type Device,
  realisticDevice as device,
  realisticProfile,
} from '../../../tests/support/realistic-devices'
import { followPrevious } from './batch-decision'
import { facets } from './component-model'
import { noVolatility } from './device-volatility'
import { compareFacets, returnShare, scoreEvidence } from './score-evidence'

const profile = realisticProfile
const devices = Array.from({ length: 300 }, (_, seed) => device(seed + 1))
const population = populationOf(devices.map(profile))

/** A value's share among the stored devices, smoothed as scoring smooths it (10 pseudo-visitors). */
const share = (name: string, digest: string, prior: number) =>
  (population.count(name, digest) + 10 * prior) / (population.visitors + 10)

/** The device as stored after a visit that showed `away`, having shown `home` before. */
function cameBack(home: Device, away: Device) {
  const latest = profile(away)
  const earlier = profile(home)
  const previous = followPrevious({ ...earlier, previous: {}, volatility: noVolatility }, latest)
  const stored = { ...latest, previous, volatility: noVolatility }
  const [comparison] = compareFacets(earlier, stored).filter((facet) => facet.level === 'previous')
  if (!comparison) throw new Error('no facet came back')
  return { comparison, stored, current: earlier }
}

describe('returnShare', () => {
  it('counts a return to the only other value of a facet as nearly every change of it', () => {
    // Light or dark: a device leaving dark mode can only go back to light.
    const home = devices.find((values) => values.colorScheme === 'light') as Device
    const { comparison, stored } = cameBack(home, { ...home, colorScheme: 'dark' })
    expect(comparison.facet).toBe('colorScheme')
    expect(returnShare(population, facets.colorScheme, stored, comparison.members)).toBeGreaterThan(0.95)
  })

  it('counts a return among several values by the share of the value returned to', () => {
    // Home from a trip: a change of time zone that did not return on purpose lands on home as often
    // as home's share among the zones other than the one left says.
    const home = devices[0] as Device
    const away = { ...home, timezone: 'Pacific/Chatham', timezoneOffset: -765 }
    const { comparison, stored } = cameBack(home, away)
    expect(comparison.facet).toBe('time')
    const homeShare = share('timezone', profile(home).digests.timezone as string, facets.time.commonness)
    // The Chatham Islands: nobody here, so the share among the others is home's share itself.
    expect(returnShare(population, facets.time, stored, comparison.members)).toBeCloseTo(
      0.5 + 0.5 * homeShare,
      2,
    )
    expect(homeShare).toBeLessThan(0.5)
  })

  it('counts a return by its share among the values other than the one left, the least of its members', () => {
    // Left for a place with a common offset (New York's): the offset that came back lands there by
    // its share among the offsets other than that common one, more than the zone's own landing; the
    // facet's members move together, so the zone's (the least) counts.
    const home = devices.find((values) => values.timezone === 'Europe/Berlin') as Device
    const away = { ...home, timezone: 'Pacific/Chatham', timezoneOffset: 300 }
    const { comparison, stored } = cameBack(home, away)
    const digests = { home: profile(home).digests, away: profile(away).digests }
    const landing = (name: 'timezone' | 'timezoneOffset') =>
      share(name, digests.home[name] as string, facets.time.commonness) /
      (1 - share(name, digests.away[name] as string, facets.time.commonness))
    expect(landing('timezoneOffset')).toBeGreaterThan(landing('timezone') + 0.03)
    expect(returnShare(population, facets.time, stored, comparison.members)).toBeCloseTo(
      0.5 + 0.5 * landing('timezone'),
      2,
    )
    // Left for Berlin's own offset, that member never moved: only the zone counts.
    const sameOffset = cameBack(home, { ...home, timezone: 'Africa/Lagos' })
    expect(sameOffset.comparison.members.find((member) => member.name === 'timezoneOffset')?.level).toBe(
      'exact',
    )
    expect(
      returnShare(population, facets.time, sameOffset.stored, sameOffset.comparison.members),
    ).toBeCloseTo(0.5 + 0.5 * share('timezone', digests.home.timezone as string, facets.time.commonness), 2)
  })

  it('weighs a return to light mode as nearly every change of the colour scheme', () => {
    const home = devices.find((values) => values.colorScheme === 'light') as Device
    const dark = { ...home, colorScheme: 'dark' }
    const back = cameBack(home, dark)
    const evidence = scoreEvidence(back.current, back.stored, population)
    const facet = evidence.facets.find((entry) => entry.facet === 'colorScheme')
    expect(facet?.level).toBe('previous')
    // The same device weighed as if a return were only the half that return on purpose: a bit less.
    const change = population.rates('colorScheme').change
    const light = profile(home).digests.colorScheme as string
    const lightShare = share('colorScheme', light, facets.colorScheme.commonness)
    expect(facet?.bits).toBeCloseTo(Math.log2(change / lightShare), 1)
    expect(facet?.bits ?? 0).toBeGreaterThan(Math.log2((change * 0.5) / lightShare) + 0.9)
  })
})
