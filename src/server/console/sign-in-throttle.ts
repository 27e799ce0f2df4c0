import 'server-only'
import type { Database } from '../db/client'
import { HttpError } from '../http/errors'
import {
  type Limit,
  lockFor,
  pointsSpent,
  recordFailure,
  resetLimit,
  secondsLocked,
} from '../rate-limit/rate-limiter'
import { verifyChallenge } from '../signup/proof-of-work'

/**
 * Wrong passwords are counted per (account, client address), never per account alone: an address
 * that has not failed is never slowed down, so nobody can lock the operator out from elsewhere.
 * Failures are forgotten an hour after the first one, or at a successful sign-in.
 */
const FAILURES: Limit = { name: 'sign-in-failures', points: 1_000_000, durationSeconds: 60 * 60 }
/** The wait imposed after each failure (see waitAfter). */
const WAIT: Limit = { name: 'sign-in-wait', points: 1, durationSeconds: 1 }
/** From this many failures on, each attempt must also carry a solved proof-of-work challenge. */
export const CHALLENGE_AFTER_FAILURES = 3
const MAX_WAIT_SECONDS = 60

/** Seconds to wait after the n-th failure: 1, 2, 4, 8… up to a minute. */
export function waitAfter(failures: number): number {
  return Math.min(MAX_WAIT_SECONDS, 2 ** Math.max(0, failures - 1))
}

export function throttleKey(account: string, ip: string | null): string {
  return `${account}|${ip ?? 'unknown'}`
}

/**
 * Before a password is checked: 429 while this pair must wait, 403 `challenge_required` when it
 * has failed often enough that a solved puzzle must come with the attempt.
 */
export async function checkSignInThrottle({
  db,
  key,
  challenge,
}: {
  db: Database
  key: string
  challenge?: string
}) {
  const waiting = await secondsLocked({ db, limit: WAIT, key })
  if (waiting > 0)
    throw new HttpError(
      'rate_limited',
      `Too many wrong passwords from this address: wait ${waiting} s before trying again.`,
      { retryAfter: waiting },
    )
  if ((await pointsSpent({ db, limit: FAILURES, key })) < CHALLENGE_AFTER_FAILURES) return
  if (!challenge)
    throw new HttpError('challenge_required', 'Too many wrong passwords: solve the puzzle, then sign in.')
  if (!(await verifyChallenge(db, challenge)))
    throw new HttpError(
      'challenge_required',
      'The puzzle was not solved or was already used: solve a new one.',
    )
}

/** After a wrong password: one more failure, and a longer wait before the next attempt. */
export async function recordSignInFailure({ db, key }: { db: Database; key: string }) {
  const failures = await recordFailure({ db, limit: FAILURES, key })
  await lockFor({ db, limit: WAIT, key, seconds: waitAfter(failures) })
  return failures
}

export async function clearSignInThrottle({ db, key }: { db: Database; key: string }) {
  await Promise.all([resetLimit({ db, limit: FAILURES, key }), resetLimit({ db, limit: WAIT, key })])
}
