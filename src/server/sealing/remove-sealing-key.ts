import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
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
    const [key] = await queryRows<{ site_id: string }>(
      tx,
      sql`select k.site_id from sealing_keys k join sites s on s.id = k.site_id where k.id = ${keyId}
          for update of s`,
    )
    if (!key) throw new HttpError('not_found', 'No sealing key has this ID.')
    const before = await recordSealingKeys.read(tx, key.site_id)
    await tx.execute(sql`delete from sealing_keys where id = ${keyId}`)
    await recordSealingKeys.audit(tx, { siteId: key.site_id, operator, before })
  })
  clearSealingKeyCache()
}
