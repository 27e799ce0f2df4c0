import { sql } from 'drizzle-orm'
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { sites } from './sites'
import { timestamptz } from './timestamptz'

/**
 * A site's keys for sealed results (AES-256-GCM). The oldest seals; a second one is the next key,
 * live for back ends during a rotation. `secret` is the key wrapped with TESSERA_ENCRYPTION_KEY
 * when that is set (see server/sealing/key-wrapping.ts), and is never shown after creation.
 */
export const sealingKeys = pgTable(
  'sealing_keys',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [index('sealing_keys_site_created').on(table.siteId, table.createdAt)],
)
