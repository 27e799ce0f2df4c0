import { describe, expect, it } from 'vitest'
import {
  RECENCY_BITS,
  RECENCY_EDGES_MS,
  RETURN_GAPS,
  recencyBits,
  recencyBucket,
  returnShare,
} from './recency'

const HOUR = 3_600_000
const DAY = 24 * HOUR

describe('recency as evidence', () => {
  it('says nothing before the population is measured, or when it returns as the default expects', () => {
    expect(recencyBits(10 * 60_000, undefined)).toBe(0)
    // Stored visitors spread over the buckets exactly as returning devices come back: m = u everywhere.
    const asExpected = RETURN_GAPS.map((share) => share * 1000)
    for (const since of [10 * 60_000, 5 * HOUR, 3 * DAY, 20 * DAY, 90 * DAY])
      expect(recencyBits(since, asExpected)).toBeCloseTo(0, 10)
  })

  it('favours a device seen lately where most stored devices were not, and the reverse, within the bound', () => {
    // A server of 3 000 devices seen days ago and 40 seen within the hour.
    const counts = [40, 0, 3000, 0, 0]
    const lately = recencyBits(20 * 60_000, counts)
    const daysAgo = recencyBits(2 * DAY, counts)
    expect(lately).toBeGreaterThan(2)
    expect(daysAgo).toBeLessThan(-1)
    expect(lately).toBeLessThanOrEqual(RECENCY_BITS)
    // However lopsided the population, recency stays weak evidence.
    expect(recencyBits(20 * 60_000, [1, 0, 1_000_000, 0, 0])).toBe(RECENCY_BITS)
    expect(recencyBits(200 * DAY, [0, 0, 0, 0, 1_000_000])).toBe(-RECENCY_BITS)
  })

  it('leans on the default while few visitors are counted', () => {
    // Two visitors, both seen within the hour: too few to say that a week-old device is unlikely.
    expect(Math.abs(recencyBits(3 * DAY, [2, 0, 0, 0, 0]))).toBeLessThan(0.1)
  })

  it('learns how soon devices come back from confirmed comebacks, leaning on the default until there are many', () => {
    expect(RETURN_GAPS.map((_, bucket) => returnShare(bucket, undefined))).toEqual([...RETURN_GAPS])
    // A few comebacks barely move it; thousands, all after a few days, make that the likely gap.
    expect(returnShare(2, [0, 0, 5, 0, 0])).toBeLessThan(0.25)
    expect(returnShare(2, [0, 0, 5000, 0, 0])).toBeGreaterThan(0.9)
    // And recency follows: a device seen days ago is then no longer unlikely among many seen days ago.
    const counts = [40, 0, 3000, 0, 0]
    expect(recencyBits(3 * DAY, counts, [0, 0, 5000, 0, 0])).toBeGreaterThan(recencyBits(3 * DAY, counts))
  })

  it('buckets the time since the last visit at an hour, a day, a week and a month', () => {
    expect(RECENCY_EDGES_MS.map((edge) => recencyBucket(edge - 1))).toEqual([0, 1, 2, 3])
    expect(RECENCY_EDGES_MS.map((edge) => recencyBucket(edge))).toEqual([1, 2, 3, 4])
    expect(recencyBucket(365 * DAY)).toBe(4)
  })
})
