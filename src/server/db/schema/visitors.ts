import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/**
 * A recognised device. `profile` follows its latest fingerprint (component name → digest),
 * `parts` the digests of its structured values' parts, `previous` the recent earlier digests of
 * components that changed (see fingerprint-profile.ts).
 */
export const visitors = pgTable('visitors', {
  id: text('id').primaryKey(),
  profile: jsonb('profile').$type<Record<string, string>>().notNull(),
  parts: jsonb('parts').$type<Record<string, string>>().notNull().default({}),
  previous: jsonb('previous').$type<Record<string, string[]>>().notNull().default({}),
  firstSeenAt: timestamptz('first_seen_at').notNull().default(sql`now()`),
  lastSeenAt: timestamptz('last_seen_at').notNull().default(sql`now()`),
  visits: integer('visits').notNull().default(1),
})

/** Blocking keys: hashes of groups of stable components, so candidates are found by index. */
export const visitorKeys = pgTable(
  'visitor_keys',
  {
    key: text('key').notNull(),
    visitorId: text('visitor_id')
      .notNull()
      .references(() => visitors.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.visitorId] }),
    index('visitor_keys_visitor').on(table.visitorId),
  ],
)

/** How many visitors share each component value (digest), for entropy and "1 in N". */
export const componentStats = pgTable(
  'component_stats',
  {
    component: text('component').notNull(),
    digest: text('digest').notNull(),
    visitors: integer('visitors').notNull(),
  },
  (table) => [primaryKey({ columns: [table.component, table.digest] })],
)

/**
 * What revisits confirmed by the signed token showed about each facet: how often it was compared,
 * how often it had changed, and how often the change kept the value's structure.
 */
export const facetChanges = pgTable('facet_changes', {
  facet: text('facet').primaryKey(),
  observed: integer('observed').notNull().default(0),
  changed: integer('changed').notNull().default(0),
  close: integer('close').notNull().default(0),
})
