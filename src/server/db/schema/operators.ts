import { sql } from 'drizzle-orm'
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/**
 * People who sign in to the console. Passwords are argon2id hashes; an operator who signs in
 * through the OpenID Connect provider has none, and is known by the provider's issuer and subject.
 */
export const operators = pgTable(
  'operators',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash'),
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    /**
     * What the operator may do (contracts/roles.ts): owner (everything, the team included), admin
     * (sites, keys, lists, rules, webhooks) or analyst (read, label, review). The first operator, and
     * every operator from before roles, is an owner; anyone else the least unless given more.
     */
    role: text('role').$type<'owner' | 'admin' | 'analyst'>().notNull().default('analyst'),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
    passwordChangedAt: timestamptz('password_changed_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('operators_oidc_identity').on(table.oidcIssuer, table.oidcSubject)],
)

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

/**
 * Invitations to the team: a link shown once to the owner who made it (only a SHA-256 of its token is
 * stored), for a role, until it is used or expires.
 */
export const operatorInvitations = pgTable('operator_invitations', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  role: text('role').$type<'owner' | 'admin' | 'analyst'>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  expiresAt: timestamptz('expires_at').notNull(),
  acceptedAt: timestamptz('accepted_at'),
  acceptedBy: text('accepted_by'),
})
