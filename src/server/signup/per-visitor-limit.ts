import type { Limit } from '../rate-limit/rate-limiter'

/**
 * Sign-up attempts in 10 minutes, whatever their outcome: per visitor, and per browser for a browser
 * that has held its token for an hour (decide-signup.ts).
 */
/** The key under which a browser spends its own budget (a visitor spends under its ID). */
export const browserBudgetKey = (browserId: string) => `browser:${browserId}`

export const PER_VISITOR_LIMIT: Limit = { name: 'signup-visitor', points: 20, durationSeconds: 600 }
