import { sql } from 'drizzle-orm'
import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

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
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('sites_one_default').on(table.isDefault).where(sql`${table.isDefault}`)],
)
