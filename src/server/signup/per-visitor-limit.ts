import type { Limit } from '../rate-limit/rate-limiter'

/** Sign-up attempts per visitor in 10 minutes, whatever their outcome. */
export const PER_VISITOR_LIMIT: Limit = { name: 'signup-visitor', points: 20, durationSeconds: 600 }

/** The rate_limits row that counts a visitor's attempts (rate-limiter-flexible's `prefix:key`). */
export function perVisitorLimitKey(visitorId: string): string {
  return `${PER_VISITOR_LIMIT.name}:${visitorId}`
}
