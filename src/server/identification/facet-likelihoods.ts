import type { Level } from '@/contracts/device'

/**
 * The one place where a facet's comparison becomes probabilities (see MODEL.md). For one facet
 * of a request compared with a stored device, three likelihoods of the level observed:
 * - `m`: P(level | the stored device came back);
 * - `u`: P(level | another device, unrelated);
 * - `t`: P(level | another device of the same kind: a twin, same model and image, set up otherwise).
 * Weights are log2 ratios of these (`weights`), as Fellegi–Sunter record linkage has them.
 */
export interface FacetLikelihoods {
  m: number
  u: number
  t: number
}

/** What one device does with a facet between two visits (its own rates; see device-volatility.ts). */
export interface ChangeRates {
  /** P(the facet differs from the stored value at a comeback). */
  change: number
  /** Of those changes, the share that keep the value's structure (a font added, a version bumped). */
  close: number
  /** Of those changes, the share that go back to an earlier value, where one is remembered. */
  back: number
}

export interface FacetObservation {
  level: Level
  /** A close set that both gained and lost members: two edits at once (see editedSets). */
  twoEdits: boolean
  /** Whether the stored device remembers earlier values of this facet (a return is possible). */
  remembers: boolean
  /** What the facet follows changed too (docked to another monitor): see FacetModel.given. */
  followedChanged: boolean
  rates: ChangeRates
  /** P(another device holds the request's value): its rarity in the population. */
  commonness: number
  /** P(another device's value is close to the request's without being equal). */
  closeChance: number
  /**
   * P(a twin's value of this facet is its own choice rather than its kind's): a twin (same model,
   * same image) holds the stored device's value, or with this probability one drawn as any
   * device's is (so agreeing on a rare value speaks for "this device" only where twins differ).
   */
  twinDifference: number
  /** What decides the facet (FacetModel.setBy): a machine's twins differ by small edits. */
  setBy: 'machine' | 'place' | 'person'
}

/** Of one device's close changes to an edited set, the share that both add and remove members. */
export const TWO_EDITS_SHARE = 0.2
/** Of the differences between twins in what the machine decides, the share that keep its structure. */
export const TWIN_CLOSE_SHARE = 0.3
/** Of a facet's values, the share that follow its `given` component when that changes. */
export const FOLLOWING_SHARE = 0.5
/** No level is ever certain or impossible: bounds every probability away from 0. */
const FLOOR = 0.01
/** A difference is never taken as less likely than this, for any hypothesis. */
const DIFFERENT_FLOOR = 0.05

export function facetLikelihoods(observation: FacetObservation): FacetLikelihoods {
  const { level, rates, commonness, closeChance, twinDifference: twin, setBy } = observation
  const { change, close } = rates
  // A return is possible only where an earlier value is remembered; otherwise every change is new.
  const back = observation.remembers ? rates.back : 0
  const fresh = change * (1 - back)
  if (observation.followedChanged && (level === 'close' || level === 'different')) {
    // A value that follows another one (a maximised window, its screen) changes with it.
    const followed = change + (1 - change) * FOLLOWING_SHARE
    return { m: followed, u: Math.max(1 - commonness, DIFFERENT_FLOOR), t: followed }
  }
  const unrelated = Math.max(1 - commonness - closeChance, DIFFERENT_FLOOR)
  // A twin's own value: close by small edits where the machine decides, as any device's elsewhere.
  const twinClose = setBy === 'machine' ? TWIN_CLOSE_SHARE : Math.max(closeChance, FLOOR)
  switch (level) {
    case 'exact':
      return { m: 1 - change, u: commonness, t: 1 - twin + twin * commonness }
    case 'previous':
      // Another device (or a twin choosing its own) holds this earlier value as often as any value.
      return { m: Math.max(change * back, FLOOR * FLOOR), u: commonness, t: twin * commonness }
    case 'close':
      return {
        m: Math.max(fresh * close * (observation.twoEdits ? TWO_EDITS_SHARE : 1), FLOOR * FLOOR),
        u: Math.max(closeChance, FLOOR),
        // Twins' sets differ by installs and swaps alike: against a twin, the count of edits says nothing.
        t: twin * twinClose,
      }
    case 'different':
      return {
        m: Math.max(fresh * (1 - close), change * DIFFERENT_FLOOR),
        u: unrelated,
        t: twin * (setBy === 'machine' ? 1 - TWIN_CLOSE_SHARE : unrelated),
      }
  }
}

/** The weights of one facet, in bits: for "the stored device" over "unrelated", and over "its twin". */
export function weights({ m, u, t }: FacetLikelihoods) {
  return { bits: Math.log2(m / u), twinBits: Math.log2(m / t) }
}
