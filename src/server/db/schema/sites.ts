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
    /**
     * The site's deny list: addresses and CIDR ranges (the ipBlocklist signal), visitor IDs and
     * `@email.domains` (contracts/list-entry.ts), normalised; the sign-up rule "Deny list" uses them all.
     */
    denyList: text('deny_list').array().notNull().default([]),
    /** The allow list, in the same form: a sign-up matching it is allowed whatever the rules say (not the deny list). */
    allowList: text('allow_list').array().notNull().default([]),
    /** The site Tessera's own screens use; exactly one. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('sites_one_default').on(table.isDefault).where(sql`${table.isDefault}`)],
)
