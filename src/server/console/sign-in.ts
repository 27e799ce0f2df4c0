import 'server-only'
import { hash, verify } from '@node-rs/argon2'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'
import { consumeRateLimit, recordFailure, resetLimit, secondsLocked } from '../rate-limit/rate-limiter'
import { createSession } from './sessions'

/** Five wrong passwords in a row lock the account for 15 minutes. */
export const LOCKOUT = { name: 'sign-in-account', points: 5, durationSeconds: 15 * 60 }
/** Attempts per IP address, right or wrong. */
const PER_IP = { name: 'sign-in-ip', points: 30, durationSeconds: 15 * 60 }
// Verified when the username is unknown, so both cases take as long.
const DUMMY_HASH = hash('tessera-dummy-password')

export async function signIn({
  db,
  username,
  password,
  ip,
}: {
  db: Database
  username: string
  password: string
  ip: string | null
}) {
  await consumeRateLimit({ db, limit: PER_IP, key: ip ?? 'unknown' })
  const account = username.trim().toLowerCase()
  const locked = await secondsLocked({ db, limit: LOCKOUT, key: account })
  if (locked > 0) {
    throw new HttpError(
      'rate_limited',
      `Too many wrong passwords: this account is locked for ${Math.ceil(locked / 60)} more minutes.`,
      { retryAfter: locked },
    )
  }
  const [operator] = await queryRows<{ id: string; password_hash: string }>(
    db,
    sql`select id, password_hash from operators where username = ${account}`,
  )
  const valid = await verify(operator?.password_hash ?? (await DUMMY_HASH), password)
  if (!operator || !valid) {
    await recordFailure({ db, limit: LOCKOUT, key: account })
    throw new HttpError('unauthorized', 'Wrong username or password.')
  }
  await resetLimit({ db, limit: LOCKOUT, key: account })
  return createSession({ db, operatorId: operator.id })
}

/** Changes an operator's password after checking the current one. */
export async function changePassword({
  db,
  operatorId,
  currentPassword,
  newPassword,
}: {
  db: Database
  operatorId: string
  currentPassword: string
  newPassword: string
}) {
  const [operator] = await queryRows<{ password_hash: string }>(
    db,
    sql`select password_hash from operators where id = ${operatorId}`,
  )
  if (!operator || !(await verify(operator.password_hash, currentPassword))) {
    throw new HttpError('invalid_request', 'The current password is not right.')
  }
  await db.execute(
    sql`update operators set password_hash = ${await hash(newPassword)}, password_changed_at = now()
        where id = ${operatorId}`,
  )
}
