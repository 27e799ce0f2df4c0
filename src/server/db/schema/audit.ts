import { sql } from 'drizzle-orm'
import { jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/** Who changed which setting, when, from what to what. */
export const settingsAudit = pgTable('settings_audit', {
  id: serial('id').primaryKey(),
  key: text('key').notNull(),
  operator: text('operator').notNull(),
  before: jsonb('before'),
  after: jsonb('after').notNull(),
  changedAt: timestamptz('changed_at').notNull().default(sql`now()`),
})
