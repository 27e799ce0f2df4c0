import 'server-only'
import { createHmac } from 'node:crypto'
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible'
import type { Database } from '../db/client'
import { rateLimits } from '../db/schema'
import { HttpError } from '../http/errors'
import { getServerSecret } from '../settings/server-secret'

export interface Limit {
  /** Prefix that separates this limiter's keys from others'. */
  name: string
  points: number
  durationSeconds: number
}

const limitersByDatabase = new WeakMap<Database, Map<string, RateLimiterDrizzle>>()

function limiterFor(db: Database, limit: Limit): RateLimiterDrizzle {
  const id = `${limit.name}:${limit.points}:${limit.durationSeconds}`
  let limiters = limitersByDatabase.get(db)
  if (!limiters) {
    limiters = new Map()
    limitersByDatabase.set(db, limiters)
  }
  let limiter = limiters.get(id)
  if (!limiter) {
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: limit.name,
      points: limit.points,
      duration: limit.durationSeconds,
      // Expired rows are overwritten on the next hit; no background timer per process.
      clearExpiredByTimeout: false,
    })
    limiters.set(id, limiter)
  }
  return limiter
}

/**
 * Counters are stored under a keyed hash of their key, so the table never holds an IP address, a
 * visitor ID or a user name, and a database dump cannot be reversed by trying every IPv4 address.
 */
async function storedKey(db: Database, key: string): Promise<string> {
  const secret = await getServerSecret(db, 'rate_limit_secret')
  return createHmac('sha256', secret).update(key).digest('base64url')
}

/** The rate_limits row of `key` under `limit` (rate-limiter-flexible stores `prefix:key`). */
export async function rateLimitRowKey({ db, limit, key }: { db: Database; limit: Limit; key: string }) {
  return `${limit.name}:${await storedKey(db, key)}`
}

/** Spends one point for `key`; past the limit, a 429 with Retry-After. Counts live in the database. */
export async function consumeRateLimit({ db, limit, key }: { db: Database; limit: Limit; key: string }) {
  try {
    await limiterFor(db, limit).consume(await storedKey(db, key))
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
      throw new HttpError('rate_limited', `Too many requests; try again in ${seconds} s.`, {
        retryAfter: seconds,
      })
    }
    throw rejection
  }
}

/** Seconds until `key` may try again, or 0 when it is under the limit (spends nothing). */
export async function secondsLocked({ db, limit, key }: { db: Database; limit: Limit; key: string }) {
  const state = await limiterFor(db, limit).get(await storedKey(db, key))
  return state && state.consumedPoints >= limit.points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0
}

/**
 * Seconds until every one of `budgets` may be spent, or 0 when all are under their limits (spends
 * nothing): checked before any is spent, so a caller refused by one never spends the others.
 */
export async function secondsUntilAll(db: Database, budgets: { limit: Limit; key: string }[]) {
  const waits = await Promise.all(budgets.map((budget) => secondsLocked({ db, ...budget })))
  return Math.max(0, ...waits)
}

/** Points spent by `key` in its current window (spends nothing). */
export async function pointsSpent({ db, limit, key }: { db: Database; limit: Limit; key: string }) {
  return (await limiterFor(db, limit).get(await storedKey(db, key)))?.consumedPoints ?? 0
}

/** Records one failure for `key` (for limits that count failures only); the new count. */
export async function recordFailure({ db, limit, key }: { db: Database; limit: Limit; key: string }) {
  return (await limiterFor(db, limit).penalty(await storedKey(db, key), 1)).consumedPoints
}

/** Refuses `key` for the next `seconds` (secondsLocked answers how long is left). */
export async function lockFor({
  db,
  limit,
  key,
  seconds,
}: {
  db: Database
  limit: Limit
  key: string
  seconds: number
}) {
  await limiterFor(db, limit).block(await storedKey(db, key), seconds)
}

export async function resetLimit({ db, limit, key }: { db: Database; limit: Limit; key: string }) {
  await limiterFor(db, limit).delete(await storedKey(db, key))
}
