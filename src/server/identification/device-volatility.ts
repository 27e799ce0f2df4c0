import { type FacetModel, type FacetName, facets } from './component-model'

/** What one device does with a facet between two visits. */
export interface ChangeRates {
  /** P(the facet differs from the stored value at a comeback). */
  change: number
  /** Of those changes, the share that keep the value's structure (a font added, a version bumped). */
  close: number
}

/**
 * What one device has been seen doing: how many comebacks it made, and in how many of them each
 * facet had changed. A device seen switching its appearance at dusk is likely to switch again; one
 * that kept its window for a month is not (per-device volatility, MODEL.md).
 */
export interface Volatility {
  comebacks: number
  changed: Partial<Record<FacetName, number>>
}

export const noVolatility: Volatility = { comebacks: 0, changed: {} }

/** How many comebacks the population's rate is worth against the device's own record. */
export const DEVICE_PRIOR_COMEBACKS = 4
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
  const changed = volatility.changed[facet] ?? 0
  const own =
    (changed + DEVICE_PRIOR_COMEBACKS * population.change) / (volatility.comebacks + DEVICE_PRIOR_COMEBACKS)
  const change = (facets[facet] as FacetModel).scheduled ? Math.max(own, population.change) : own
  return { ...population, change: Math.min(Math.max(change, MIN_CHANGE), MAX_CHANGE) }
}

/** The record after one more comeback, in which `changedFacets` had changed. */
export function addComeback(volatility: Volatility, changedFacets: readonly FacetName[]): Volatility {
  const changed = { ...volatility.changed }
  for (const facet of changedFacets) changed[facet] = (changed[facet] ?? 0) + 1
  return { comebacks: volatility.comebacks + 1, changed }
}

/** A stored record read back: anything that is not a volatility record counts as none. */
export function readVolatility(value: unknown): Volatility {
  if (typeof value !== 'object' || value === null) return noVolatility
  const { comebacks, changed } = value as Partial<Volatility>
  if (typeof comebacks !== 'number' || typeof changed !== 'object' || changed === null) return noVolatility
  return { comebacks, changed }
}
