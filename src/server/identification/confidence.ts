import { FINGERPRINT_MIN_SIMILARITY, type Match } from './match-visitor'

/**
 * How sure the server is of the visitor ID it answered, in [0, 1]. The shape was calibrated on the
 * accuracy corpus (`npm run bench:accuracy` prints the table): among answers with a score ≥ s the
 * observed precision was ≥ s.
 */
export function scoreConfidence(match: Match): number {
  switch (match.method) {
    case 'token':
      // A signed token plus a consistent fingerprint: very rarely wrong.
      return round(0.96 + 0.035 * match.similarity)
    case 'fingerprint': {
      const closeness = (match.similarity - FINGERPRINT_MIN_SIMILARITY) / (1 - FINGERPRINT_MIN_SIMILARITY)
      const lead = Math.min(1, (match.similarity - match.runnerUp) / 0.3)
      return round(Math.min(0.99, 0.6 + 0.25 * closeness + 0.14 * lead))
    }
    case 'new':
      // Sure it is new when nothing came close; less sure just below the matching threshold.
      return round(Math.max(0.5, 0.97 - 0.45 * Math.max(0, match.similarity - 0.5) * 2.2))
  }
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000
}
