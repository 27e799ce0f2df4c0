import { sql } from 'drizzle-orm'
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { sites } from './sites'
import { timestamptz } from './timestamptz'

/** Secret Server API keys. Only a SHA-256 of the secret is stored; the key is shown once. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (table) => [index('api_keys_site').on(table.siteId)],
)
