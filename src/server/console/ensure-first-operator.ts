import 'server-only'
import { randomBytes } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

export const FIRST_OPERATOR = 'admin'

/**
 * Creates the first operator when there is none. Its password comes from TESSERA_ADMIN_PASSWORD,
 * or is generated and returned so the caller prints it once; it is never stored in clear.
 */
export async function ensureFirstOperator({
  db,
  configuredPassword,
}: {
  db: Database
  configuredPassword?: string
}): Promise<{ created: boolean; generatedPassword?: string }> {
  const [existing] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from operators`)
  if ((existing?.n ?? 0) > 0) return { created: false }
  const generatedPassword = configuredPassword ? undefined : randomBytes(15).toString('base64url')
  const password = configuredPassword ?? generatedPassword ?? ''
  const inserted = await queryRows<{ id: string }>(
    db,
    sql`insert into operators (id, username, password_hash)
        values (${`op_${randomBytes(9).toString('base64url')}`}, ${FIRST_OPERATOR}, ${await hash(password)})
        on conflict (username) do nothing returning id`,
  )
  // Another server won the race: its password is the one that counts.
  if (inserted.length === 0) return { created: false }
  return { created: true, generatedPassword }
}
