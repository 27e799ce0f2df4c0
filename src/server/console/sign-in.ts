import 'server-only'
import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { operators } from '../db/schema'
import { HttpError } from '../http/errors'
import { addressKey } from '../rate-limit/address-key'
import { consumeRateLimit } from '../rate-limit/rate-limiter'
import { createSession } from './sessions'
import { clearPairThrottle, guardPasswordCheck, recordWrongPassword } from './sign-in-throttle'

/** Attempts per address (an IPv6 address by its /64), right or wrong, whatever the account. */
const PER_ADDRESS = { name: 'sign-in-ip', points: 30, durationSeconds: 15 * 60 }
// Verified when the username is unknown (or has no password), so every case takes as long; of a
// random password, so that no known string matches it.
const DUMMY_HASH = hash(randomBytes(32).toString('base64url'))

/**
 * Checks a password and opens a session. Wrong passwords slow down the (account, address) pair
 * that sent them and, past a budget, make every attempt at the account pay a growing proof of work
 * (sign-in-throttle.ts); the answer to the attempt that crosses a threshold says so
 * (`details.challenge`, `details.difficulty`), so the form can start solving before the next one.
 */
export async function signIn({
  db,
  username,
  password,
  challenge,
  ip,
}: {
  db: Database
  username: string
  password: string
  challenge?: string
  ip: string | null
}) {
  await consumeRateLimit({ db, limit: PER_ADDRESS, key: addressKey(ip) })
  const who = { db, username, ip }
  await guardPasswordCheck({ ...who, challenge })
  const [operator] = await db
    .select({ id: operators.id, passwordHash: operators.passwordHash })
    .from(operators)
    .where(eq(operators.username, username.trim().toLowerCase()))
  // An operator of the identity provider has no password here: checked like an unknown name.
  const valid = await verify(operator?.passwordHash ?? (await DUMMY_HASH), password)
  if (!operator?.passwordHash || !valid) {
    throw new HttpError('unauthorized', 'Wrong username or password.', await recordWrongPassword(who))
  }
  await clearPairThrottle(who)
  return createSession({ db, operatorId: operator.id })
}
