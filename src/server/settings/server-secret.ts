import 'server-only'
import { randomBytes } from 'node:crypto'
import type { Database } from '../db/client'
import { settings } from '../db/schema'
import { processWide } from '../process-wide'
import { readSetting } from './read-setting'

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
  // Insert-if-absent, then read back: concurrent first starts all read the one key that won.
  await db
    .insert(settings)
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing({ target: settings.key })
  const secret = await readSetting({ db, key })
  if (typeof secret !== 'string') throw new Error(`The ${key} could not be read.`)
  return secret
}
