import type { OverviewPoint, Range } from '@/contracts/console'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const spans: Record<Range, { step: number; length: number }> = {
  '24h': { step: HOUR, length: 24 * HOUR },
  '7d': { step: DAY, length: 7 * DAY },
  '30d': { step: DAY, length: 30 * DAY },
}

/**
 * The overview's series over its whole range: every hour (24 h) or UTC day (7 and 30 days) from
 * the range's start to now, an empty one where nothing happened, so one busy hour reads as one
 * hour of a day and not as the whole chart. The server's buckets are UTC hours and days as well.
 */
export function withEmptyBuckets(
  series: readonly OverviewPoint[],
  range: Range,
  now: number,
): OverviewPoint[] {
  const { step, length } = spans[range]
  const known = new Map(series.map((point) => [Date.parse(point.bucket), point]))
  const first = Math.floor((now - length) / step) * step
  const filled: OverviewPoint[] = []
  for (let at = first; at <= now; at += step)
    filled.push(
      known.get(at) ?? {
        bucket: new Date(at).toISOString(),
        identifications: 0,
        visitors: 0,
        bots: 0,
        allow: 0,
        challenge: 0,
        deny: 0,
      },
    )
  // A bucket outside the span computed here (a clock apart from the server's) is never dropped.
  const shown = new Set(filled.map((point) => Date.parse(point.bucket)))
  const outside = series.filter((point) => !shown.has(Date.parse(point.bucket)))
  return [...filled, ...outside].sort((a, b) => Date.parse(a.bucket) - Date.parse(b.bucket))
}
