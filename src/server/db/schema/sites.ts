import { sql } from 'drizzle-orm'
import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/**
 * A site that embeds Tessera: its public key, the origins allowed to use it, and its workspace:
 * sites of one workspace share visitor identity; a new site is a workspace of its own, so one
 * site's answers never reflect another's traffic unless the operator groups them.
 */
export const sites = pgTable(
  'sites',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull().unique(),
    allowedOrigins: text('allowed_origins').array().notNull().default([]),
    workspace: text('workspace').notNull().default('default'),
    /** Addresses and CIDR ranges the operator blocks (the ipBlocklist signal and sign-up rule), normalised. */
    blockedNetworks: text('blocked_networks').array().notNull().default([]),
    /** The site Tessera's own screens use; exactly one. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('sites_one_default').on(table.isDefault).where(sql`${table.isDefault}`)],
)
