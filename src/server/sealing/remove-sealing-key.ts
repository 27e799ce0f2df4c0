import 'server-only'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { sealingKeys, sites } from '../db/schema'
import { HttpError } from '../http/errors'
import { clearSealingKeyCache } from './find-sealing-key'
import { recordSealingKeys } from './record-sealing-keys'

/**
 * Removes a sealing key: the next key, if any, seals from now on; without one, sealing stops.
 * Audited in the same transaction. 404 for a key that does not exist (any more).
 */
export async function removeSealingKey({
  db,
  keyId,
  operator,
}: {
  db: Database
  keyId: string
  operator: string
}) {
  await db.transaction(async (tx) => {
    // The site's row lock serialises key changes, as when a key is created.
    const [key] = await tx
      .select({ siteId: sealingKeys.siteId })
      .from(sealingKeys)
      .innerJoin(sites, eq(sites.id, sealingKeys.siteId))
      .where(eq(sealingKeys.id, keyId))
      .for('update', { of: sites })
    if (!key) throw new HttpError('not_found', 'No sealing key has this ID.')
    const before = await recordSealingKeys.read(tx, key.siteId)
    await tx.delete(sealingKeys).where(eq(sealingKeys.id, keyId))
    await recordSealingKeys.audit(tx, { siteId: key.siteId, operator, before })
  })
  clearSealingKeyCache()
}
