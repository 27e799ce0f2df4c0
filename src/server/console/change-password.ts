import 'server-only'
import { hash, verify } from '@node-rs/argon2'
import { eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { operators } from '../db/schema'
import { HttpError } from '../http/errors'
import { endOtherSessions } from './sessions'
import { clearPairThrottle, guardPasswordCheck, recordWrongPassword } from './sign-in-throttle'

/**
 * Changes an operator's password after checking the current one, and signs that operator out of
 * every other session: whoever knew the old password must not stay signed in with it. The current
 * password is throttled as a sign-in is (sign-in-throttle.ts), on the same budgets: a stolen
 * session must not become a fast way to guess it.
 */
export async function changePassword({
  db,
  operatorId,
  currentPassword,
  newPassword,
  sessionToken,
  challenge,
  ip,
}: {
  db: Database
  operatorId: string
  currentPassword: string
  newPassword: string
  /** The session making the change, which stays signed in. */
  sessionToken?: string
  /** A solved proof of work, asked for after wrong passwords. */
  challenge?: string
  ip: string | null
}) {
  const [operator] = await db
    .select({ username: operators.username, passwordHash: operators.passwordHash })
    .from(operators)
    .where(eq(operators.id, operatorId))
  if (!operator) throw new HttpError('unauthorized', 'Sign in again.')
  if (operator.passwordHash === null)
    throw new HttpError(
      'conflict',
      'You sign in through your identity provider: your password is kept there.',
    )
  const who = { db, username: operator.username, ip }
  await guardPasswordCheck({ ...who, challenge })
  if (!(await verify(operator.passwordHash, currentPassword))) {
    const next = await recordWrongPassword(who)
    throw new HttpError('invalid_request', 'The current password is not right.', {
      fields: { currentPassword: 'The current password is not right.' },
      ...next,
    })
  }
  await clearPairThrottle(who)
  const passwordHash = await hash(newPassword)
  await db.transaction(async (tx) => {
    await tx
      .update(operators)
      .set({ passwordHash, passwordChangedAt: sql`now()` })
      .where(eq(operators.id, operatorId))
    await endOtherSessions({ db: tx, operatorId, keepToken: sessionToken })
  })
}
