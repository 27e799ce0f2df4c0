import 'server-only'
import { randomBytes } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import type { Database } from '../db/client'
import { operators } from '../db/schema'

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
  if ((await db.$count(operators)) > 0) return { created: false }
  const generatedPassword = configuredPassword ? undefined : randomBytes(15).toString('base64url')
  const password = configuredPassword ?? generatedPassword ?? ''
  const inserted = await db
    .insert(operators)
    .values({
      id: `op_${randomBytes(9).toString('base64url')}`,
      username: FIRST_OPERATOR,
      passwordHash: await hash(password),
      role: 'owner',
    })
    .onConflictDoNothing({ target: operators.username })
    .returning({ id: operators.id })
  // Another server won the race: its password is the one that counts.
  if (inserted.length === 0) return { created: false }
  return { created: true, generatedPassword }
}
