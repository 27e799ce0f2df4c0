import type { FacetName } from '../../src/server/identification/component-model'
import { facets } from '../../src/server/identification/component-model'
import type { FingerprintProfile } from '../../src/server/identification/fingerprint-profile'
import { learnedRates, measuredCloseChance } from '../../src/server/identification/population'
import type { Population } from '../../src/server/identification/score-evidence'

const facetNames = Object.keys(facets) as FacetName[]
const rates = new Map(facetNames.map((facet) => [facet, learnedRates(facet, undefined)]))
const closeChances = new Map(facetNames.map((facet) => [facet, measuredCloseChance(facet, undefined)]))

/** A population with the model's defaults (no learned rates, no measured pairs), overridable. */
export function modelPopulation(overrides: Partial<Population> = {}): Population {
  return {
    visitors: 1_000,
    count: () => 1,
    rates: (facet) => rates.get(facet) ?? learnedRates(facet, undefined),
    closeChance: (facet) => closeChances.get(facet) ?? 0,
    ...overrides,
  }
}

/** Counts taken from the stored profiles themselves, as component_stats keeps them. */
export function populationOf(
  profiles: FingerprintProfile[],
  overrides: Partial<Population> = {},
): Population {
  const counts = new Map<string, number>()
  for (const { digests } of profiles) {
    for (const [name, digest] of Object.entries(digests)) {
      counts.set(`${name}=${digest}`, (counts.get(`${name}=${digest}`) ?? 0) + 1)
    }
  }
  return modelPopulation({
    visitors: profiles.length,
    count: (name, digest) => counts.get(`${name}=${digest}`) ?? 0,
    ...overrides,
  })
}
