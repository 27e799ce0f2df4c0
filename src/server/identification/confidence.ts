import type { Match } from './match-visitor'

/**
 * How sure the server is of the visitor ID it answered, in [0, 1]: the probability of the
 * decision it made (the matched visitor, or a new device). `npm run bench:accuracy` prints the
 * calibration table: among answers with a score ≥ s the observed precision should be ≥ s.
 */
export function scoreConfidence(match: Match): number {
  return Math.round(Math.min(0.99, Math.max(0, match.probability)) * 1000) / 1000
}
