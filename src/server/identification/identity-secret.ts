import 'server-only'
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

let cached: Promise<string> | undefined

/**
 * The HMAC key that signs visitor tokens. Generated once and kept in the database, so every app
 * server behind a load balancer signs and verifies with the same key.
 */
export function getIdentitySecret(db: Database): Promise<string> {
  cached ??= loadSecret(db).catch((error) => {
    cached = undefined
    throw error
  })
  return cached
}

async function loadSecret(db: Database): Promise<string> {
  const candidate = JSON.stringify(randomBytes(32).toString('base64url'))
  // Insert-if-absent and read back in one statement: concurrent first starts agree on one key.
  const rows = await queryRows<{ value: string }>(
    db,
    sql`with inserted as (
          insert into settings (key, value) values ('identity_secret', ${candidate}::jsonb)
          on conflict (key) do nothing returning value)
        select value from inserted union all select value from settings where key = 'identity_secret'`,
  )
  const secret = rows[0]?.value
  if (typeof secret !== 'string') throw new Error('The identity secret could not be read.')
  return secret
}
