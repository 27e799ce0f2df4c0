import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { sites } from './sites'

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('api_keys_site').on(table.siteId)],
)
