import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { openTestDatabase } from '../../../tests/support/test-database'
import type { DatabaseHandle } from '../db/client'
import { HttpError } from '../http/errors'
import { newChallenge } from '../signup/challenges/proof-of-work'
import { ensureFirstOperator } from './ensure-first-operator'
import { signIn } from './sign-in'

const PASSWORD = 'correct horse battery staple'
const A = '203.0.113.10'
const B = '198.51.100.20'

let handle: DatabaseHandle
let now = Date.parse('2026-03-01T12:00:00Z')

/** The HttpError a sign-in attempt fails with, or 'signed in'. */
async function attempt(ip: string, password: string, extra: { username?: string; challenge?: string } = {}) {
  try {
    await signIn({
      db: handle.db,
      username: extra.username ?? 'admin',
      password,
      challenge: extra.challenge,
      ip,
    })
    return 'signed in'
  } catch (error) {
    if (error instanceof HttpError) return error
    throw error
  }
}

function later(seconds: number) {
  now += seconds * 1000
  vi.setSystemTime(now)
}

async function solvedChallenge(): Promise<string> {
  const challenge = await newChallenge(handle.db)
  const solution = await solveChallenge({ challenge, deriveKey })
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

beforeAll(async () => {
  handle = await openTestDatabase('pglite', '')
  await ensureFirstOperator({ db: handle.db, configuredPassword: PASSWORD })
})
afterAll(() => handle.close())
// Only Date is faked: the rate limiter reads the time from it, the database keeps running.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  // Two days on: every count of failures (the account's lasts a day) starts afresh.
  later(2 * 86_400)
})
afterEach(() => vi.useRealTimers())

describe('signing in after wrong passwords', () => {
  it('five wrong passwords from one address never stop the right password from another', async () => {
    for (let failure = 1; failure <= 5; failure++) {
      expect(await attempt(A, `wrong-${failure}`)).toMatchObject({ code: expect.any(String) })
      later(60)
    }
    expect(await attempt(B, PASSWORD)).toBe('signed in')
    // The address that failed is still slowed down.
    expect(await attempt(A, PASSWORD)).toMatchObject({ code: 'challenge_required' })
  })

  it('slows the failing address with growing waits, then asks it for a proof of work', async () => {
    const ip = '203.0.113.20'
    const waits: number[] = []
    for (let failure = 1; failure <= 3; failure++) {
      const wrong = await attempt(ip, 'not the password')
      expect(wrong).toMatchObject({ code: 'unauthorized', message: 'Wrong username or password.' })
      // Even the right password waits its turn from here.
      const early = await attempt(ip, PASSWORD)
      expect(early).toMatchObject({ code: 'rate_limited' })
      const { retryAfter } = (early as HttpError).details as { retryAfter: number }
      waits.push(retryAfter)
      later(retryAfter)
    }
    expect(waits).toEqual([1, 2, 4])

    expect(await attempt(ip, PASSWORD)).toMatchObject({ code: 'challenge_required' })
    expect(await attempt(ip, PASSWORD, { challenge: 'bm90IGEgc29sdXRpb24=' })).toMatchObject({
      code: 'challenge_required',
    })
    const solved = await solvedChallenge()
    expect(await attempt(ip, PASSWORD, { challenge: solved })).toBe('signed in')
    // A success forgets the failures; a solution is accepted once only.
    expect(await attempt(ip, PASSWORD)).toBe('signed in')
  })

  it('says in the third failure that the next attempt needs the puzzle', async () => {
    const ip = '203.0.113.30'
    const answers: unknown[] = []
    for (let failure = 1; failure <= 3; failure++) {
      answers.push((await attempt(ip, 'nope')) as HttpError)
      later(60)
    }
    expect(answers.map((answer) => (answer as HttpError).details)).toEqual([
      undefined,
      undefined,
      { challenge: true, difficulty: expect.any(Number) },
    ])
  })

  it('throttles per (account, address): other accounts and other addresses are untouched', async () => {
    const ip = '203.0.113.40'
    for (let failure = 1; failure <= 4; failure++) {
      await attempt(ip, 'nope', { username: 'auditor' })
      later(60)
    }
    expect(await attempt(ip, 'nope', { username: 'auditor' })).toMatchObject({ code: 'challenge_required' })
    // The same address, another account: only a wrong password.
    expect(await attempt(ip, 'nope')).toMatchObject({ code: 'unauthorized' })
    later(1)
    expect(await attempt(ip, PASSWORD)).toBe('signed in')
  })
})
