import { jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

/** Who changed which setting, when, from what to what. */
export const settingsAudit = pgTable('settings_audit', {
  id: serial('id').primaryKey(),
  key: text('key').notNull(),
  operator: text('operator').notNull(),
  before: jsonb('before'),
  after: jsonb('after').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
})
