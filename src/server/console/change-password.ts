import 'server-only'
import { hash, verify } from '@node-rs/argon2'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
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
  const [operator] = await queryRows<{ password_hash: string }>(
    db,
    sql`select password_hash from operators where id = ${operatorId}`,
  )
  if (!operator || !(await verify(operator.password_hash, currentPassword))) {
    throw new HttpError('invalid_request', 'The current password is not right.')
  }
  const passwordHash = await hash(newPassword)
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`update operators set password_hash = ${passwordHash}, password_changed_at = now()
          where id = ${operatorId}`,
    )
    await endOtherSessions({ db: tx, operatorId, keepToken: sessionToken })
  })
}
