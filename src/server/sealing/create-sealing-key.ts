import 'server-only'
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
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
}): Promise<{ id: string; key: string; sealing: boolean; createdAt: string }> {
  const key = randomBytes(32)
  const id = `sek_${randomBytes(9).toString('base64url')}`
  const created = await db.transaction(async (tx) => {
    // The site's row lock serialises key changes: two clicks never make a third key.
    const [site] = await queryRows<{ id: string }>(
      tx,
      sql`select id from sites where id = ${siteId} for update`,
    )
    if (!site) throw new HttpError('not_found', 'No site has this ID.')
    const before = await recordSealingKeys.read(tx, siteId)
    if (before.length >= MAX_SEALING_KEYS)
      throw new HttpError(
        'conflict',
        'This site already has two sealing keys: remove the older one once your back ends use the newer one.',
      )
    const [row] = await queryRows<{ created_at: string | Date }>(
      tx,
      sql`insert into sealing_keys (id, site_id, secret)
          values (${id}, ${siteId}, ${wrapKey({ key, keyId: id, encryptionKey })}) returning created_at`,
    )
    await recordSealingKeys.audit(tx, { siteId, operator, before })
    return { sealing: before.length === 0, createdAt: new Date(row?.created_at ?? Date.now()).toISOString() }
  })
  clearSealingKeyCache()
  return { id, key: key.toString('base64'), ...created }
}
