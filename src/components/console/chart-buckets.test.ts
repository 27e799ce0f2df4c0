import { describe, expect, it } from 'vitest'
import type { OverviewPoint } from '@/contracts/console'
import { withEmptyBuckets } from './chart-buckets'

const point = (bucket: string, identifications: number): OverviewPoint => ({
  bucket,
  identifications,
  visitors: 1,
  bots: 0,
  allow: 0,
  challenge: 0,
  deny: 0,
})

describe('withEmptyBuckets', () => {
  const now = Date.parse('2026-12-05T21:17:00Z')

  it('spreads one busy hour over the whole day, the other hours empty', () => {
    const series = withEmptyBuckets([point('2026-12-05T21:00:00.000Z', 25)], '24h', now)
    expect(series).toHaveLength(25)
    expect(series[0]?.bucket).toBe('2026-12-04T21:00:00.000Z')
    expect(series.at(-1)).toEqual(point('2026-12-05T21:00:00.000Z', 25))
    expect(series.slice(0, -1).every((each) => each.identifications === 0 && each.visitors === 0)).toBe(true)
  })

  it('counts days from the UTC day the range reaches back to, and keeps what the server sent', () => {
    const sent = [point('2026-11-30T00:00:00.000Z', 3), point('2026-12-05T00:00:00.000Z', 4)]
    const series = withEmptyBuckets(sent, '7d', now)
    expect(series.map((each) => each.bucket.slice(0, 10))).toEqual([
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
    ])
    expect(series.map((each) => each.identifications)).toEqual([0, 0, 3, 0, 0, 0, 0, 4])
  })

  it('never drops a bucket the server sent outside the span this clock computes', () => {
    const ahead = point('2026-12-05T23:00:00.000Z', 2)
    expect(withEmptyBuckets([ahead], '24h', now).at(-1)).toEqual(ahead)
  })
})
