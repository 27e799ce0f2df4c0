import { type FacetModel, type FacetName, facets } from './component-model'

/** What one device does with a facet between two visits. */
export interface ChangeRates {
  /** P(the facet differs from the stored value at a comeback). */
  change: number
  /** Of those changes, the share that keep the value's structure (a font added, a version bumped). */
  close: number
  /**
   * P(the facet is back at an earlier value) for a device whose latest comeback moved it to a value
   * not shown before (an outing: a trip, dark mode at dusk, a zoomed page), as sure as that match
   * was. 0 otherwise.
   */
  undo?: number
  /**
   * How sure it is that the facet's stored value is one the device moved to at its latest comeback
   * (an outing, as sure as that match was), not one it came with: its twin lives at the earlier
   * value. 0 otherwise.
   */
  acquired?: number
  /**
   * P(the facet shows a value the device has not shown before): its changes other than returns to
   * an earlier value. The population's rates do not tell the two apart (equal to `change` there).
   */
  novel?: number
}

/**
 * What one device has been seen doing: how many comebacks it made, and in how many of them each
 * facet had changed. A device seen switching its appearance at dusk is likely to switch again; one
 * that kept its window for a month is not (per-device volatility, MODEL.md).
 */
export interface Volatility {
  comebacks: number
  changed: Partial<Record<FacetName, number>>
  /**
   * Of those, the comebacks at which the facet moved to a value the device had not shown before
   * (not back to an earlier one). A device that switches between two values (dark mode at dusk, a
   * language it adds and drops) is likely to switch again, not to show a third value. Absent in
   * records stored before it was kept: every change counts as one to a new value then.
   */
  novel?: Partial<Record<FacetName, number>>
  /**
   * The facets it had moved to a value not seen before at its latest comeback (an outing from its
   * usual state, which may end; a value it came back to is not one). Absent in records stored
   * before it was kept.
   */
  recent?: FacetName[]
  /**
   * How sure the match that saw those outings was (its probability; absent: sure). An outing seen
   * on another device taken for this one (a false merge) is no outing of this device: it counts only
   * as much as the match was likely right.
   */
  recentWeight?: number
}

export const noVolatility: Volatility = { comebacks: 0, changed: {} }

/** How many comebacks the population's rate is worth against the device's own record. */
export const DEVICE_PRIOR_COMEBACKS = 4
/**
 * Of the facets a device changed at a comeback, the share back at an earlier value at the next one:
 * most ordinary changes are outings from the device's usual state that end (travel, an appearance
 * that follows the time of day, a window resized or a page zoomed for a while). A documented default
 * (MODEL.md): half.
 */
export const UNDO_SHARE = 0.5
/** A device's own change rate stays within these bounds, however it behaved. */
const MIN_CHANGE = 0.001
const MAX_CHANGE = 0.9

/**
 * A facet's change rates for one device: the population's rate, moved by what this device did
 * (a beta prior worth DEVICE_PRIOR_COMEBACKS comebacks). A scheduled facet's rate (a browser's
 * updates) is never moved below the population's: twenty visits in a week without an update do not
 * make the next one less likely.
 */
export function deviceRates(population: ChangeRates, volatility: Volatility, facet: FacetName): ChangeRates {
  const floor = (facets[facet] as FacetModel).scheduled ? population.change : 0
  const changed = volatility.changed[facet] ?? 0
  const novel = volatility.novel ? (volatility.novel[facet] ?? 0) : changed
  const acquired = volatility.recent?.includes(facet) ? (volatility.recentWeight ?? 1) : 0
  return {
    change: ownRate(changed, volatility.comebacks, population.change, floor),
    close: population.close,
    novel: ownRate(novel, volatility.comebacks, population.change, floor),
    undo: UNDO_SHARE * acquired,
    acquired,
  }
}

/**
 * A rate seen `count` times in `comebacks`, with the population's rate worth DEVICE_PRIOR_COMEBACKS
 * of them; never below `floor`, and within MIN_CHANGE and MAX_CHANGE.
 */
function ownRate(count: number, comebacks: number, population: number, floor: number) {
  const own = (count + DEVICE_PRIOR_COMEBACKS * population) / (comebacks + DEVICE_PRIOR_COMEBACKS)
  return Math.min(Math.max(own, floor, MIN_CHANGE), MAX_CHANGE)
}

/**
 * The record after one more comeback, in which `changedFacets` had changed, `departed` of them to
 * a value the device had not shown before (not back to an earlier one).
 */
export function addComeback(
  volatility: Volatility,
  changedFacets: readonly FacetName[],
  departed: readonly FacetName[] = changedFacets,
  /** The probability of the match that found this comeback (1: a token). */
  certainty = 1,
  /** Of `departed`, those that may be undone (not a browser's update, see changedFacets): the outings. */
  outings: readonly FacetName[] = departed,
): Volatility {
  const changed = { ...volatility.changed }
  for (const facet of changedFacets) changed[facet] = (changed[facet] ?? 0) + 1
  // A record kept before novel changes were counted: its changes count as novel, as they weighed.
  const novel = { ...(volatility.novel ?? volatility.changed) }
  for (const facet of departed) novel[facet] = (novel[facet] ?? 0) + 1
  const comebacks = volatility.comebacks + 1
  if (outings.length === 0) return { comebacks, changed, novel }
  const recentWeight = Math.min(Math.max(certainty, 0), 1)
  return { comebacks, changed, novel, recent: [...outings], ...(recentWeight < 1 && { recentWeight }) }
}

/** A stored record read back: anything that is not a volatility record counts as none. */
export function readVolatility(value: unknown): Volatility {
  if (typeof value !== 'object' || value === null) return noVolatility
  const { comebacks, changed, novel, recent, recentWeight } = value as Partial<Volatility>
  if (typeof comebacks !== 'number' || typeof changed !== 'object' || changed === null) return noVolatility
  const counts = readCounts(novel, comebacks)
  const counted = counts ? { novel: counts } : {}
  const known = Array.isArray(recent)
    ? recent.filter((facet): facet is FacetName => typeof facet === 'string' && Object.hasOwn(facets, facet))
    : []
  if (known.length === 0) return { comebacks, changed, ...counted }
  const weight =
    typeof recentWeight === 'number' && recentWeight >= 0 && recentWeight < 1 ? { recentWeight } : {}
  return { comebacks, changed, ...counted, recent: known, ...weight }
}

/** Per-facet counts read back: known facets, whole numbers from 0 to `comebacks`; undefined when not a record. */
function readCounts(value: unknown, comebacks: number): Partial<Record<FacetName, number>> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  return Object.fromEntries(
    Object.entries(value).filter(
      ([facet, count]) =>
        Object.hasOwn(facets, facet) && Number.isInteger(count) && count >= 0 && count <= comebacks,
    ),
  )
}
