import { sql } from 'drizzle-orm'
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/** People who sign in to the console. Passwords are argon2id hashes. */
export const operators = pgTable('operators', {
  id: text('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  passwordChangedAt: timestamptz('password_changed_at').notNull().default(sql`now()`),
})

/** Console sessions; only a SHA-256 of the session token is stored. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('operator_sessions_operator').on(table.operatorId)],
)
