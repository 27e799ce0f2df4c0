import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Server-wide settings as key → JSON value (policy thresholds, bootstrap markers). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
