import type { FacetName } from './component-model'
import { noVolatility } from './device-volatility'
import type { FingerprintProfile } from './fingerprint-profile'
import type { PairCounts } from './population'
import { compareFacets } from './score-evidence'

/** A stored visitor as the measurements read it. */
export interface SampledVisitor extends FingerprintProfile {
  network: string | null
}

/**
 * How each facet compares between different stored devices (record linkage's u, measured as
 * splink does: on pairs of records that are not matches): every pair of the sample compared, per
 * facet the pairs that differed and those that were close without being equal.
 */
export function measurePairs(sample: readonly FingerprintProfile[]): Map<FacetName, PairCounts> {
  const counts = new Map<FacetName, PairCounts>()
  for (let a = 0; a < sample.length; a++) {
    const left = sample[a]
    if (!left) continue
    for (let b = a + 1; b < sample.length; b++) {
      const right = sample[b]
      if (!right) continue
      for (const { facet, level } of compareFacets(left, {
        ...right,
        previous: {},
        volatility: noVolatility,
      })) {
        const facetCounts = counts.get(facet) ?? { pairs: 0, differed: 0, close: 0 }
        facetCounts.pairs++
        if (level !== 'exact') facetCounts.differed++
        if (level === 'close') facetCounts.close++
        counts.set(facet, facetCounts)
      }
    }
  }
  return counts
}

/**
 * At most `perNetwork` visitors from one network, so no single network (a client that just stored
 * many devices) shapes what the population is measured to be.
 */
export function diverseSample<T extends { network: string | null }>(
  visitors: readonly T[],
  size: number,
  perNetwork: number,
): T[] {
  const taken = new Map<string, number>()
  const sample: T[] = []
  for (const visitor of visitors) {
    if (sample.length >= size) break
    const network = visitor.network ?? ''
    const count = taken.get(network) ?? 0
    if (visitor.network !== null && count >= perNetwork) continue
    taken.set(network, count + 1)
    sample.push(visitor)
  }
  return sample
}
