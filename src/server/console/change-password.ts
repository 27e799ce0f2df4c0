import 'server-only'
import { hash, verify } from '@node-rs/argon2'
import { eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { operators } from '../db/schema'
import { HttpError } from '../http/errors'
import { endOtherSessions } from './sessions'

/**
 * Changes an operator's password after checking the current one, and signs that operator out of
 * every other session: whoever knew the old password must not stay signed in with it.
 */
export async function changePassword({
  db,
  operatorId,
  currentPassword,
  newPassword,
  sessionToken,
}: {
  db: Database
  operatorId: string
  currentPassword: string
  newPassword: string
  /** The session making the change, which stays signed in. */
  sessionToken?: string
}) {
  const [operator] = await db
    .select({ passwordHash: operators.passwordHash })
    .from(operators)
    .where(eq(operators.id, operatorId))
  if (!operator || !(await verify(operator.passwordHash, currentPassword))) {
    throw new HttpError('invalid_request', 'The current password is not right.')
  }
  const passwordHash = await hash(newPassword)
  await db.transaction(async (tx) => {
    await tx
      .update(operators)
      .set({ passwordHash, passwordChangedAt: sql`now()` })
      .where(eq(operators.id, operatorId))
    await endOtherSessions({ db: tx, operatorId, keepToken: sessionToken })
  })
}
