import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/** A recognised device. `profile` follows its latest fingerprint (component name → digest). */
export const visitors = pgTable('visitors', {
  id: text('id').primaryKey(),
  profile: jsonb('profile').$type<Record<string, string>>().notNull(),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
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
