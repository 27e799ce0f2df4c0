import 'server-only'
import { hash, verify } from '@node-rs/argon2'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'

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
