import 'server-only'
import { hash, verify } from '@node-rs/argon2'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { operators } from '../db/schema'
import { HttpError } from '../http/errors'
import { consumeRateLimit } from '../rate-limit/rate-limiter'
import { createSession } from './sessions'
import {
  CHALLENGE_AFTER_FAILURES,
  checkSignInThrottle,
  clearSignInThrottle,
  recordSignInFailure,
  throttleKey,
} from './sign-in-throttle'

/** Attempts per IP address, right or wrong, whatever the account. */
const PER_IP = { name: 'sign-in-ip', points: 30, durationSeconds: 15 * 60 }
// Verified when the username is unknown, so both cases take as long.
const DUMMY_HASH = hash('tessera-dummy-password')

/**
 * Checks a password and opens a session. Wrong passwords slow down only the (account, address)
 * pair that sent them (sign-in-throttle.ts); the answer to the attempt that crosses the challenge
 * threshold says so (`details.challenge`), so the form can start solving before the next one.
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
  await consumeRateLimit({ db, limit: PER_IP, key: ip ?? 'unknown' })
  const account = username.trim().toLowerCase()
  const key = throttleKey(account, ip)
  await checkSignInThrottle({ db, key, challenge })
  const [operator] = await db
    .select({ id: operators.id, passwordHash: operators.passwordHash })
    .from(operators)
    .where(eq(operators.username, account))
  const valid = await verify(operator?.passwordHash ?? (await DUMMY_HASH), password)
  if (!operator || !valid) {
    const failures = await recordSignInFailure({ db, key })
    throw new HttpError(
      'unauthorized',
      'Wrong username or password.',
      failures >= CHALLENGE_AFTER_FAILURES ? { challenge: true } : undefined,
    )
  }
  await clearSignInThrottle({ db, key })
  return createSession({ db, operatorId: operator.id })
}
