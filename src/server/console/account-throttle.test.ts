import { eq } from 'drizzle-orm'
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import type { Database } from '../db/client'
import { operators } from '../db/schema'
import { HttpError } from '../http/errors'
import { solvedChallenge } from '../signup/test-signup'
import { changePassword } from './change-password'
import { ensureFirstOperator } from './ensure-first-operator'
import { signIn } from './sign-in'
import { passwordCheckDifficulty } from './sign-in-throttle'

const PASSWORD = 'correct horse battery staple'
let now = Date.parse('2026-04-01T12:00:00Z')

function later(seconds: number) {
  now += seconds * 1000
  vi.setSystemTime(now)
}

/** 'signed in', or the code of the HttpError the attempt failed with. */
async function outcome(attempt: Promise<unknown>, success = 'signed in'): Promise<string> {
  try {
    await attempt
    return success
  } catch (error) {
    if (error instanceof HttpError) return error.code
    throw error
  }
}

// Only Date is faked: the rate limiter reads the time from it, the database keeps running.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  // A day later each time: every test starts with no failures counted.
  later(2 * 86_400)
})
afterEach(() => vi.useRealTimers())

describeOnEachEngine('the per-account password budget', (database) => {
  let db: Database
  let operatorId: string
  const attempt = (ip: string, password: string, challenge?: string, username = 'admin') =>
    outcome(signIn({ db, username, password, challenge, ip }))

  beforeAll(async () => {
    db = database.db
    await ensureFirstOperator({ db, configuredPassword: PASSWORD })
    const [operator] = await db
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.username, 'admin'))
    operatorId = operator?.id ?? ''
  })

  it('stops 30 guesses spread over 15 addresses after a few, yet the right password gets in after a puzzle', async () => {
    const answers: string[] = []
    for (let address = 0; address < 15; address++) {
      for (let guess = 0; guess < 2; guess++) {
        answers.push(await attempt(`203.0.113.${address + 1}`, `guess-${address}-${guess}`))
        later(5)
      }
    }
    // Five passwords were checked; every later guess was asked for a proof of work first.
    expect(answers.filter((answer) => answer === 'unauthorized')).toHaveLength(5)
    expect(answers.slice(5)).toEqual(Array(25).fill('challenge_required'))

    // The owner, from an address that never failed: the puzzle is asked for, then the password works.
    const clean = '198.51.100.7'
    expect(await attempt(clean, PASSWORD)).toBe('challenge_required')
    const difficulty = await passwordCheckDifficulty({ db, username: 'admin', ip: clean })
    expect(difficulty).toBeGreaterThan(0)
    // A puzzle easier than asked for does not count.
    expect(await attempt(clean, PASSWORD, await solvedChallenge(db, Math.floor(difficulty / 4)))).toBe(
      'challenge_required',
    )
    expect(await attempt(clean, PASSWORD, await solvedChallenge(db, difficulty))).toBe('signed in')
  })

  it('asks for more work the more wrong passwords the account gets, from anywhere', async () => {
    const first = '203.0.113.101'
    for (let guess = 0; guess < 5; guess++) {
      await attempt(`203.0.113.${110 + guess}`, 'wrong')
      later(5)
    }
    const easiest = await passwordCheckDifficulty({ db, username: 'admin', ip: first })
    expect(easiest).toBeGreaterThan(0)
    // Each further guess must bring a solved puzzle, and raises the next one's price.
    for (let guess = 0; guess < 5; guess++) {
      const ip = `203.0.113.${120 + guess}`
      const difficulty = await passwordCheckDifficulty({ db, username: 'admin', ip })
      expect(await attempt(ip, 'wrong', await solvedChallenge(db, difficulty))).toBe('unauthorized')
      later(5)
    }
    expect(await passwordCheckDifficulty({ db, username: 'admin', ip: first })).toBeGreaterThan(easiest)
    // Another account's budget is its own.
    expect(await passwordCheckDifficulty({ db, username: 'auditor', ip: first })).toBe(0)
  })

  it('counts an IPv6 /64 as one address', async () => {
    const answers: string[] = []
    for (let guess = 0; guess < 4; guess++) {
      answers.push(await attempt(`2001:db8:5:7::${guess + 1}`, 'wrong', undefined, 'ops'))
      later(60)
    }
    expect(answers).toEqual(['unauthorized', 'unauthorized', 'unauthorized', 'challenge_required'])
    // Another /64 has its own budget.
    expect(await attempt('2001:db8:5:8::1', 'wrong', undefined, 'ops')).toBe('unauthorized')
  })

  it('throttles the current-password check of a password change like a sign-in', async () => {
    const ip = '198.51.100.30'
    const change = (currentPassword: string, challenge?: string) =>
      outcome(
        changePassword({
          db,
          operatorId,
          currentPassword,
          newPassword: 'quartz-ember-harbour-51',
          challenge,
          ip,
        }),
        'changed',
      )
    // A stolen session guessing quickly: one password checked, then waits.
    const rapid: string[] = []
    for (let guess = 0; guess < 20; guess++) rapid.push(await change(`guess-${guess}`))
    expect(rapid[0]).toBe('invalid_request')
    expect(rapid.slice(1)).toEqual(Array(19).fill('rate_limited'))
    // Guessing slowly: the third wrong password brings the puzzle.
    const slow: string[] = []
    for (let guess = 0; guess < 4; guess++) {
      later(60)
      slow.push(await change(`slow-${guess}`))
    }
    expect(slow).toEqual(['invalid_request', 'invalid_request', 'challenge_required', 'challenge_required'])
    // The right current password, with the puzzle solved, changes it.
    later(60)
    const difficulty = await passwordCheckDifficulty({ db, username: 'admin', ip })
    expect(await change(PASSWORD, await solvedChallenge(db, difficulty))).toBe('changed')
    // Those three were guesses at the account's password: two more from elsewhere reach its budget.
    const elsewhere: string[] = []
    for (let guess = 0; guess < 3; guess++) {
      later(60)
      elsewhere.push(await attempt('198.51.100.31', `elsewhere-${guess}`))
    }
    expect(elsewhere).toEqual(['unauthorized', 'unauthorized', 'challenge_required'])
  })
})
