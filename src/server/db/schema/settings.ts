import { sql } from 'drizzle-orm'
import { jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/** Server-wide settings as key → JSON value (policy thresholds, bootstrap markers). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
})
