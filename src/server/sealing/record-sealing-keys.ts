import 'server-only'
import { asc, eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { sealingKeys, settingsAudit } from '../db/schema'

interface KeyListing {
  id: string
  createdAt: string
}

/** The audit trail of a site's sealing keys: which keys it had before and after, never key material. */
export const recordSealingKeys = {
  auditKey: (siteId: string) => `sealing-keys:${siteId}`,

  read(db: Database, siteId: string): Promise<KeyListing[]> {
    return db
      .select({ id: sealingKeys.id, createdAt: sealingKeys.createdAt })
      .from(sealingKeys)
      .where(eq(sealingKeys.siteId, siteId))
      .orderBy(asc(sealingKeys.createdAt), asc(sealingKeys.id))
  },

  async audit(
    db: Database,
    { siteId, operator, before }: { siteId: string; operator: string; before: KeyListing[] },
  ) {
    const after = await recordSealingKeys.read(db, siteId)
    await db.insert(settingsAudit).values({
      key: recordSealingKeys.auditKey(siteId),
      operator,
      before: { keys: before },
      after: { keys: after },
    })
  },
}
