import { sql } from 'drizzle-orm'
import { boolean, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

/** A site that embeds Tessera: its public key and the origins allowed to use it. */
export const sites = pgTable(
  'sites',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull().unique(),
    allowedOrigins: text('allowed_origins').array().notNull().default([]),
    /** The site Tessera's own screens use; exactly one. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('sites_one_default').on(table.isDefault).where(sql`${table.isDefault}`)],
)
