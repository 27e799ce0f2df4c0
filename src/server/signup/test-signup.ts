import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { sql } from 'drizzle-orm'
import type { SignupRequest } from '@/contracts/signup'
import type { SignupPolicy } from '@/contracts/signup-policy'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import type { Database } from '../db/client'
import { ensureEventPartitions } from '../db/event-partitions'
import { HttpError } from '../http/errors'
import { identifyVisitor } from '../identification/identify-visitor'
import { writeSetting } from '../settings/write-setting'
import { newChallenge } from './challenges/proof-of-work'
import { decideSignup } from './decide-signup'
import { POLICY_SETTING } from './policy/read-policy'

/** Test helpers for sign-up decisions: a device's identification, a form, a solved puzzle. */

let formCounter = 0

export function signupFields(email = `person${++formCounter}-${Date.now()}@example.com`) {
  return { name: 'Grace Hopper', email, password: 'cobalt-meridian-lantern-77', terms: true }
}

/** Identifies synthetic device `seed` from `ip`, as the browser holding `storedToken` when given. */
export async function identifyDevice(
  db: Database,
  { seed, ip, storedToken }: { seed: number; ip: string; storedToken?: string },
) {
  return identifyVisitor({
    db,
    input: { components: syntheticDevice(seed), ...(storedToken ? { storedToken } : {}) },
    context: { ip, userAgent: 'test' },
  })
}

export function decide(db: Database, input: SignupRequest, ip: string) {
  return decideSignup({ db, input, context: { ip } })
}

/** The HttpError a promise fails with (or a failed expectation when it does not fail so). */
export async function httpFailure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof HttpError) return error
    throw error
  }
  throw new Error('expected an HttpError')
}

export async function setPolicy(db: Database, policy: Partial<SignupPolicy>) {
  await writeSetting({ db, key: POLICY_SETTING, value: policy })
}

/** A solved challenge payload, as the widget posts it. */
export async function solvedChallenge(db: Database, difficulty?: number): Promise<string> {
  const challenge = await newChallenge(db, difficulty)
  const solution = await solveChallenge({ challenge, deriveKey })
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

/** Moves every event of a browser (by its request IDs' browser) back in time. */
export async function ageBrowser(db: Database, requestId: string, hours: number) {
  // On PostgreSQL the days they move to need their tables, as a server running that long has.
  await ensureEventPartitions(db, new Date(Date.now() - (hours + 24) * 3_600_000), new Date())
  await db.execute(
    sql`update events set created_at = created_at - make_interval(hours => ${hours})
        where browser_id = (select browser_id from events where request_id = ${requestId})`,
  )
}
