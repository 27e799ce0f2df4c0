import { describe, expect, it } from 'vitest'
import type { Level } from '@/contracts/device'
import { type FacetObservation, facetLikelihoods, weights } from './facet-likelihoods'

const observation = (level: Level, overrides: Partial<FacetObservation> = {}): FacetObservation => ({
  level,
  twoEdits: false,
  remembers: false,
  followedChanged: false,
  rates: { change: 0.1, close: 0.4, back: 0.9 },
  commonness: 0.01,
  closeChance: 0.05,
  twinDifference: 0.2,
  setBy: 'machine',
  ...overrides,
})
const levels: Level[] = ['exact', 'previous', 'close', 'different']

describe('facetLikelihoods', () => {
  it('gives the stored device a probability over the levels that sums to one', () => {
    for (const remembers of [true, false]) {
      const possible = remembers ? levels : levels.filter((level) => level !== 'previous')
      const total = possible.reduce(
        (sum, level) => sum + facetLikelihoods(observation(level, { remembers })).m,
        0,
      )
      expect(total).toBeCloseTo(1, 6)
    }
  })

  it('counts an exact rare value strongly for the device, and a common one little', () => {
    const rare = weights(facetLikelihoods(observation('exact', { commonness: 0.001 })))
    const common = weights(facetLikelihoods(observation('exact', { commonness: 0.6 })))
    expect(rare.bits).toBeGreaterThan(9)
    expect(common.bits).toBeLessThan(1)
  })

  it('takes a return to a remembered value as ordinary for a device seen switching', () => {
    // Light mode again after a dark visit: the device switched once in two comebacks.
    const switching = { change: 0.5, close: 0, back: 0.9 }
    const back = weights(
      facetLikelihoods(observation('previous', { remembers: true, rates: switching, commonness: 0.6 })),
    )
    expect(back.bits).toBeGreaterThan(-0.5)
    // Against a twin, the return still speaks for the device.
    expect(back.twinBits).toBeGreaterThan(0)
  })

  it('weighs a difference in a rarely changing setting against the device and for its twin', () => {
    const rare = weights(
      facetLikelihoods(
        observation('different', { rates: { change: 0.001, close: 0, back: 0.8 }, commonness: 0.7 }),
      ),
    )
    expect(rare.bits).toBeLessThan(-7)
    expect(rare.twinBits).toBeLessThan(-6)
  })

  it('weighs a set edited both ways as less likely than one install', () => {
    const once = weights(facetLikelihoods(observation('close')))
    const twice = weights(facetLikelihoods(observation('close', { twoEdits: true })))
    expect(twice.bits).toBeCloseTo(once.bits + Math.log2(0.2), 6)
  })
})
