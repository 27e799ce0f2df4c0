import type { Limit } from '../rate-limit/rate-limiter'

/** Sign-up attempts per browser (its token's browser ID) in 10 minutes, whatever their outcome. */
export const PER_VISITOR_LIMIT: Limit = { name: 'signup-visitor', points: 20, durationSeconds: 600 }
