import 'server-only'
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
import { processWide } from '../process-wide'

/**
 * A secret generated once and kept in the settings table, so every app server behind a load
 * balancer signs and verifies with the same key.
 */
export function getServerSecret(db: Database, key: string): Promise<string> {
  const cache = processWide('serverSecrets', () => new Map<string, Promise<string>>())
  let secret = cache.get(key)
  if (!secret) {
    secret = loadSecret(db, key).catch((error) => {
      cache.delete(key)
      throw error
    })
    cache.set(key, secret)
  }
  return secret
}

async function loadSecret(db: Database, key: string): Promise<string> {
  const candidate = JSON.stringify(randomBytes(32).toString('base64url'))
  // Insert-if-absent and read back in one statement: concurrent first starts agree on one key.
  const rows = await queryRows<{ value: string }>(
    db,
    sql`with inserted as (
          insert into settings (key, value) values (${key}, ${candidate}::jsonb)
          on conflict (key) do nothing returning value)
        select value from inserted union all select value from settings where key = ${key}`,
  )
  const secret = rows[0]?.value
  if (typeof secret !== 'string') throw new Error(`The ${key} could not be read.`)
  return secret
}
