import { componentWeight } from './component-weights'
import type { Digests } from './digest-components'

/**
 * Weighted share of the components both fingerprints have that are equal, in [0, 1].
 * Components only one side has (new, failed or randomised) do not count either way.
 */
export function scoreSimilarity(current: Digests, stored: Digests): number {
  let matched = 0
  let total = 0
  for (const [name, digest] of Object.entries(current)) {
    const storedDigest = stored[name]
    if (storedDigest === undefined) continue
    const weight = componentWeight(name)
    total += weight
    if (storedDigest === digest) matched += weight
  }
  return total === 0 ? 0 : matched / total
}
