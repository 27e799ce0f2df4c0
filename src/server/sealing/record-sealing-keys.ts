import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

interface KeyListing {
  id: string
  createdAt: string
}

/** The audit trail of a site's sealing keys: which keys it had before and after, never key material. */
export const recordSealingKeys = {
  auditKey: (siteId: string) => `sealing-keys:${siteId}`,

  async read(db: Database, siteId: string): Promise<KeyListing[]> {
    const rows = await queryRows<{ id: string; created_at: string | Date }>(
      db,
      sql`select id, created_at from sealing_keys where site_id = ${siteId} order by created_at, id`,
    )
    return rows.map((row) => ({ id: row.id, createdAt: new Date(row.created_at).toISOString() }))
  },

  async audit(
    db: Database,
    { siteId, operator, before }: { siteId: string; operator: string; before: KeyListing[] },
  ) {
    const after = await recordSealingKeys.read(db, siteId)
    await db.execute(
      sql`insert into settings_audit (key, operator, before, after)
          values (${recordSealingKeys.auditKey(siteId)}, ${operator},
                  ${JSON.stringify({ keys: before })}::jsonb, ${JSON.stringify({ keys: after })}::jsonb)`,
    )
  },
}
