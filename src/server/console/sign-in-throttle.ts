import 'server-only'
import type { Database } from '../db/client'
import { getEnv } from '../env'
import { HttpError } from '../http/errors'
import { addressKey } from '../rate-limit/address-key'
import {
  type Limit,
  lockFor,
  pointsSpent,
  recordFailure,
  resetLimit,
  secondsLocked,
} from '../rate-limit/rate-limiter'
import { verifyChallenge } from '../signup/challenges/proof-of-work'

/**
 * Wrong passwords for an operator account (at sign-in, or as the current password of a change)
 * are counted twice. Per (account, address), an IPv6 address by its /64: growing waits, then a
 * proof of work; forgotten an hour after the first failure, or at the right password. Per account,
 * from any address: past a budget, every attempt must bring a proof of work whose size grows with
 * the failures; forgotten a day after the first failure, not at the right password (the guesser
 * would get a fresh budget each time the owner signs in). Nothing ever refuses the right password
 * outright, so nobody can lock the operator out: they pay in seconds of their browser's work.
 */
const PAIR_FAILURES: Limit = { name: 'sign-in-failures', points: 1_000_000, durationSeconds: 60 * 60 }
/** The wait imposed after each failure (see waitAfter). */
const PAIR_WAIT: Limit = { name: 'sign-in-wait', points: 1, durationSeconds: 1 }
const ACCOUNT_FAILURES: Limit = {
  name: 'sign-in-account-failures',
  points: 1_000_000,
  durationSeconds: 24 * 60 * 60,
}
/** From this many failures of one (account, address) pair on, each attempt needs a proof of work. */
export const CHALLENGE_AFTER_FAILURES = 3
/** From this many failures of one account, from anywhere, each attempt needs a proof of work. */
export const ACCOUNT_CHALLENGE_AFTER_FAILURES = 5
/** Every this many failures past a budget, the proof of work doubles… */
const FAILURES_PER_DOUBLING = 5
/** …up to this many times the configured difficulty (about 1.2 M hashes at the default: seconds). */
const MAX_DIFFICULTY_FACTOR = 32
const MAX_WAIT_SECONDS = 60

/** Seconds to wait after the n-th failure: 1, 2, 4, 8… up to a minute. */
export function waitAfter(failures: number): number {
  return Math.min(MAX_WAIT_SECONDS, 2 ** Math.max(0, failures - 1))
}

/**
 * The proof of work the next attempt needs (0: none), given the failures so far: the configured
 * difficulty once a budget is spent, doubled every FAILURES_PER_DOUBLING failures past it.
 */
export function difficultyAfter(pairFailures: number, accountFailures: number, base: number): number {
  const past = Math.max(
    pairFailures - CHALLENGE_AFTER_FAILURES,
    accountFailures - ACCOUNT_CHALLENGE_AFTER_FAILURES,
  )
  if (past < 0) return 0
  return base * Math.min(MAX_DIFFICULTY_FACTOR, 2 ** Math.floor(past / FAILURES_PER_DOUBLING))
}

interface Who {
  db: Database
  /** The operator's user name (any case, trimmed here). */
  username: string
  ip: string | null
}

function keysOf({ username, ip }: Who) {
  const account = username.trim().toLowerCase()
  return { account, pair: `${account}|${addressKey(ip)}` }
}

/** The proof of work the next password attempt for this account from this address needs (0: none). */
export async function passwordCheckDifficulty(who: Who): Promise<number> {
  const { db } = who
  const { account, pair } = keysOf(who)
  const [pairFailures, accountFailures] = await Promise.all([
    pointsSpent({ db, limit: PAIR_FAILURES, key: pair }),
    pointsSpent({ db, limit: ACCOUNT_FAILURES, key: account }),
  ])
  return difficultyAfter(pairFailures, accountFailures, getEnv().TESSERA_CHALLENGE_DIFFICULTY)
}

/**
 * Before a password is checked: 429 while this (account, address) must wait, 403
 * `challenge_required` (with the difficulty in its details) when the attempt must come with a
 * solved puzzle of at least the size the failures so far ask for.
 */
export async function guardPasswordCheck(who: Who & { challenge?: string }) {
  const { db, challenge } = who
  const waiting = await secondsLocked({ db, limit: PAIR_WAIT, key: keysOf(who).pair })
  if (waiting > 0)
    throw new HttpError(
      'rate_limited',
      `Too many wrong passwords from this address: wait ${waiting} s before trying again.`,
      { retryAfter: waiting },
    )
  const difficulty = await passwordCheckDifficulty(who)
  if (difficulty === 0) return
  const details = { challenge: true, difficulty }
  if (!challenge)
    throw new HttpError(
      'challenge_required',
      'Many wrong passwords were tried for this account: solve the puzzle, then try again.',
      details,
    )
  if (!(await verifyChallenge(db, challenge, difficulty)))
    throw new HttpError(
      'challenge_required',
      'The puzzle was not solved, was too easy or was already used: solve a new one.',
      details,
    )
}

/**
 * After a wrong password: one more failure for the pair and the account, a longer wait for the
 * pair. Answers the details the refusal should carry: whether the next attempt needs a puzzle.
 */
export async function recordWrongPassword(
  who: Who,
): Promise<{ challenge: true; difficulty: number } | undefined> {
  const { db } = who
  const { account, pair } = keysOf(who)
  const [pairFailures, accountFailures] = await Promise.all([
    recordFailure({ db, limit: PAIR_FAILURES, key: pair }),
    recordFailure({ db, limit: ACCOUNT_FAILURES, key: account }),
  ])
  await lockFor({ db, limit: PAIR_WAIT, key: pair, seconds: waitAfter(pairFailures) })
  const difficulty = difficultyAfter(pairFailures, accountFailures, getEnv().TESSERA_CHALLENGE_DIFFICULTY)
  return difficulty > 0 ? { challenge: true, difficulty } : undefined
}

/** After the right password: this address starts afresh; the account's count runs its course. */
export async function clearPairThrottle(who: Who) {
  const { db } = who
  const { pair } = keysOf(who)
  await Promise.all([
    resetLimit({ db, limit: PAIR_FAILURES, key: pair }),
    resetLimit({ db, limit: PAIR_WAIT, key: pair }),
  ])
}
