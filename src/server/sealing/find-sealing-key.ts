import 'server-only'
import { asc, eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { sealingKeys } from '../db/schema'
import { getEnv } from '../env'
import { log } from '../log'
import { processWide } from '../process-wide'
import { unwrapKey } from './key-wrapping'

export interface SealingKey {
  id: string
  key: Buffer
}

// Identify reads it on every request of a sealing site: as with sites, a short cache, so that a
// console change reaches every app server within seconds. One per process (see process-wide.ts).
const TTL_MS = 5_000
const sealingKeyCache = () =>
  processWide('sealingKeyCache', () => new Map<string, { key: SealingKey | undefined; expires: number }>())

/**
 * The key that seals the site's results: its oldest (a newer one is the next key of a rotation).
 * A key that cannot be unwrapped (TESSERA_ENCRYPTION_KEY changed) is logged and skipped.
 */
export async function findSealingKey({
  db,
  siteId,
  encryptionKey = getEnv().TESSERA_ENCRYPTION_KEY,
}: {
  db: Database
  siteId: string
  encryptionKey?: Buffer
}): Promise<SealingKey | undefined> {
  const cache = sealingKeyCache()
  const cached = cache.get(siteId)
  if (cached && cached.expires > Date.now()) return cached.key
  const rows = await db
    .select({ id: sealingKeys.id, secret: sealingKeys.secret })
    .from(sealingKeys)
    .where(eq(sealingKeys.siteId, siteId))
    .orderBy(asc(sealingKeys.createdAt), asc(sealingKeys.id))
  let found: SealingKey | undefined
  for (const row of rows) {
    const key = unwrapKey({ stored: row.secret, keyId: row.id, encryptionKey })
    if (key) {
      found = { id: row.id, key }
      break
    }
    log.error({ keyId: row.id }, 'a sealing key cannot be read with the current TESSERA_ENCRYPTION_KEY')
  }
  cache.set(siteId, { key: found, expires: Date.now() + TTL_MS })
  return found
}

/** Forgets cached keys, after the console changed one. */
export function clearSealingKeyCache() {
  sealingKeyCache().clear()
}
