// How long since a stored device was last seen, as evidence that it is the one coming back
// (MODEL.md, "Recency"): log2 m/u, where m is the chance that a device coming back without its
// storage does so after that long, and u the share of stored devices last seen that long ago.

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Upper edges of the buckets of time since the last visit: an hour, a day, a week, a month, beyond. */
export const RECENCY_EDGES_MS = [HOUR, DAY, 7 * DAY, 30 * DAY] as const
/**
 * m's documented default: of the devices that come back, the share that does so within an hour of
 * its last visit, within a day, a week, a month, and later (return visits thin out with time,
 * heavy-tailed). Learned from confirmed token comebacks (learn-model.ts), worth PRIOR_COMEBACKS of them.
 */
export const RETURN_GAPS = [0.35, 0.3, 0.2, 0.1, 0.05] as const
/** Pseudo-comebacks of the default against the learned gaps, as change rates are learned (population.ts). */
const PRIOR_COMEBACKS = 200
/** u is smoothed with this many pseudo-visitors spread as m: with nothing measured, recency says nothing. */
const PRIOR_VISITORS = 50
/** Recency is weak evidence, like the address: a device's timing is an assumption about traffic. */
export const RECENCY_BITS = 3

/** Which bucket a time since the last visit falls in. */
export function recencyBucket(sinceMs: number): number {
  const index = RECENCY_EDGES_MS.findIndex((edge) => sinceMs < edge)
  return index === -1 ? RECENCY_EDGES_MS.length : index
}

/** m for a bucket: the default moved by the comebacks learned per bucket (`gaps`). */
export function returnShare(bucket: number, gaps: readonly number[] | undefined): number {
  const learned = gaps?.length === RETURN_GAPS.length ? gaps : undefined
  const total = learned?.reduce((sum, count) => sum + count, 0) ?? 0
  return ((learned?.[bucket] ?? 0) + PRIOR_COMEBACKS * (RETURN_GAPS[bucket] ?? 0)) / (total + PRIOR_COMEBACKS)
}

/**
 * The bits for a candidate last seen `sinceMs` ago, given the stored visitors counted per bucket
 * (`counts`, measured then; none: no evidence) and the comebacks learned per bucket (`gaps`),
 * bounded by RECENCY_BITS either way.
 */
export function recencyBits(
  sinceMs: number,
  counts: readonly number[] | undefined,
  gaps?: readonly number[],
): number {
  if (!counts || counts.length !== RETURN_GAPS.length) return 0
  const bucket = recencyBucket(Math.max(0, sinceMs))
  const total = counts.reduce((sum, count) => sum + count, 0)
  const m = returnShare(bucket, gaps)
  const u = ((counts[bucket] ?? 0) + PRIOR_VISITORS * m) / (total + PRIOR_VISITORS)
  const bits = Math.log2(m / u)
  return Math.max(-RECENCY_BITS, Math.min(RECENCY_BITS, bits))
}
