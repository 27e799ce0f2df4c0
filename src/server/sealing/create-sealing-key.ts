import 'server-only'
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { CreatedSealingKey } from '@/contracts/console'
import type { Database } from '../db/client'
import { sealingKeys, sites } from '../db/schema'
import { getEnv } from '../env'
import { HttpError } from '../http/errors'
import { clearSealingKeyCache } from './find-sealing-key'
import { wrapKey } from './key-wrapping'
import { recordSealingKeys } from './record-sealing-keys'

/** A site holds at most two keys: the one that seals, and the next one during a rotation. */
export const MAX_SEALING_KEYS = 2

/**
 * A new AES-256 key for the site's sealed results. The first key seals from now on; a second is
 * the next key (rotation): it starts sealing once the older one is removed, so back ends can be
 * given it first. The answer is the only time the key is shown. Audited in the same transaction.
 */
export async function createSealingKey({
  db,
  siteId,
  operator,
  encryptionKey = getEnv().TESSERA_ENCRYPTION_KEY,
}: {
  db: Database
  siteId: string
  operator: string
  encryptionKey?: Buffer
}): Promise<CreatedSealingKey> {
  const key = randomBytes(32)
  const id = `sek_${randomBytes(9).toString('base64url')}`
  const created = await db.transaction(async (tx) => {
    // The site's row lock serialises key changes: two clicks never make a third key.
    const [site] = await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId)).for('update')
    if (!site) throw new HttpError('not_found', 'No site has this ID.')
    const before = await recordSealingKeys.read(tx, siteId)
    if (before.length >= MAX_SEALING_KEYS)
      throw new HttpError(
        'conflict',
        'This site already has two sealing keys: remove the older one once your back ends use the newer one.',
      )
    const [row] = await tx
      .insert(sealingKeys)
      // Stamped when stored, under the site's lock, not when the transaction began: the oldest key
      // seals (find-sealing-key.ts), so keys must sort in the order they were made.
      .values({
        id,
        siteId,
        secret: wrapKey({ key, keyId: id, encryptionKey }),
        createdAt: sql`clock_timestamp()`,
      })
      .returning({ createdAt: sealingKeys.createdAt })
    if (!row) throw new Error('The sealing key was not stored.')
    await recordSealingKeys.audit(tx, { siteId, operator, before })
    return { sealing: before.length === 0, createdAt: row.createdAt }
  })
  clearSealingKeyCache()
  return { id, key: key.toString('base64'), sealing: created.sealing, createdAt: created.createdAt }
}
