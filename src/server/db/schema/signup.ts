import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { SignupFacts } from '../../signup/policy/evaluate-policy'
import { timestamptz } from './timestamptz'

/** Accounts created through /registration. */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    /**
     * The address trimmed and lower-cased: one account per address, whatever its case. NULL only
     * for an older account that repeated an earlier account's address in another case, from before
     * addresses were normalised (migration 0010 keeps such records rather than delete them).
     */
    emailNormalised: text('email_normalised').unique('accounts_email_normalised'),
    /**
     * The inbox the address delivers to (mailbox-of.ts: no `+tag`, no dots where the provider
     * ignores them), so the accounts-per-device rule counts `grace+2@` as `grace@`'s.
     */
    mailbox: text('mailbox'),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Kept without a foreign key: forgetting a visitor must not delete the person's account. */
    visitorId: text('visitor_id'),
    /**
     * Keyed hash of the device's fingerprint profile, so the accounts-per-device rule still counts
     * this account after the visitor is forgotten; cleared by retention once the rule's window is over.
     */
    deviceMark: text('device_mark'),
    /**
     * The browser ID (see persistent-token.ts) of the identification that created the account, so
     * the accounts-per-device rule tells this browser's accounts from other browsers' with the same
     * fingerprint (a copy); cleared by retention with the device mark.
     */
    browserId: text('browser_id'),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [
    index('accounts_visitor_created').on(table.visitorId, table.createdAt),
    index('accounts_device_mark_created').on(table.deviceMark, table.createdAt),
    index('accounts_mailbox_created').on(table.mailbox, table.createdAt),
  ],
)

/**
 * The decisions an analyst reviews, as the review queue's index and query both write it (the planner
 * matches the two as text): challenged, solved or not, or denied, but not for an existing account,
 * and not a challenge a later attempt answered (that attempt is the sign-up to review).
 */
export const FOR_REVIEW = sql.raw(
  `(outcome <> 'allow' or challenge_solved) and not (reasons @> '[{"rule":"existingAccount"}]'::jsonb) and superseded_by is null`,
)

/** A label as it was before a review replaced it. */
export type PriorLabel = { label: 'fraud' | 'good'; operator: string; labelledAt: string }
/** For each subject a review labelled, its label before the review (null: it had none). */
export type ReviewUndo = { visitor?: PriorLabel | null; account?: PriorLabel | null }

/** Every sign-up decision with its reasons; one per identification request (no replays). */
export const signupDecisions = pgTable(
  'signup_decisions',
  {
    requestId: text('request_id').primaryKey(),
    visitorId: text('visitor_id'),
    /** The public key of the identification's site (null: none), so the console can show one site's sign-ups. */
    siteKey: text('site_key'),
    ip: text('ip'),
    /**
     * The address's network as its budgets count it (addressKey: an IPv4 address, an IPv6 /64), so
     * the attempts-from-an-address rule counts by an index. Null for decisions stored before it
     * (migration 0047 fills in the last day's).
     */
    network: text('network'),
    email: text('email').notNull(),
    outcome: text('outcome').$type<'allow' | 'challenge' | 'deny'>().notNull(),
    reasons: jsonb('reasons').$type<{ rule: string; outcome: string; message: string }[]>().notNull(),
    challengeSolved: boolean('challenge_solved').notNull().default(false),
    accountId: text('account_id'),
    /**
     * What the rules were applied to (evaluate-policy.ts's SignupFacts, taken under the lock), so a
     * rule change can be tried on past sign-ups before it is saved; null for decisions before it.
     */
    facts: jsonb('facts').$type<SignupFacts>(),
    /** An analyst's review of a challenged or denied sign-up (the console's review queue); null until then. */
    review: text('review').$type<'approved' | 'rejected'>(),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamptz('reviewed_at'),
    /**
     * What the review's labels replaced, so it can be undone: for each subject it labelled (the
     * visitor, the account), the label it had before (null: none). Null before a review, or for one
     * stored before undo existed.
     */
    reviewUndo: jsonb('review_undo').$type<ReviewUndo>(),
    /**
     * For a challenge the same device answered in a later attempt (the same address, within the
     * challenge's 10 minutes), that attempt's request ID: the two are one sign-up, reviewed and
     * counted once, as that attempt. Null otherwise.
     */
    supersededBy: text('superseded_by'),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [
    index('signup_decisions_visitor_created').on(table.visitorId, table.createdAt),
    index('signup_decisions_ip_created').on(table.ip, table.createdAt),
    index('signup_decisions_network_created').on(table.network, table.createdAt),
    index('signup_decisions_created').on(table.createdAt),
    // The console's outcome filter, newest first; and its site.
    index('signup_decisions_outcome_created').on(table.outcome, table.createdAt),
    index('signup_decisions_site_created').on(table.siteKey, table.createdAt),
    // The review queue: challenged (solved or not) and denied sign-ups no one has reviewed yet; not
    // an address that already had an account (stored as denied, answered as allowed).
    index('signup_decisions_to_review')
      .on(table.createdAt)
      .where(sql`${FOR_REVIEW} and ${table.review} is null`),
  ],
)

/** Solved proof-of-work challenges, so one solution is accepted once. */
export const usedChallenges = pgTable('used_challenges', {
  id: text('id').primaryKey(),
  usedAt: timestamptz('used_at').notNull().default(sql`now()`),
})

/**
 * An analyst's judgement of an account (fraud or good), from the console's review queue or its
 * visitor panel. Kept without a foreign key, as accounts are kept apart from visitors.
 */
export const accountLabels = pgTable('account_labels', {
  accountId: text('account_id').primaryKey(),
  label: text('label').$type<'fraud' | 'good'>().notNull(),
  operator: text('operator').notNull(),
  labelledAt: timestamptz('labelled_at').notNull().default(sql`now()`),
})

/**
 * One-time codes mailed to a sign-up's address (the "email code" challenge): only a keyed hash of
 * the code, the wrong guesses it has had, and when it expires or was used. Purged once expired.
 */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: text('id').primaryKey(),
    /** The address as normalised (contracts/signup.ts): the code proves it receives mail. */
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    wrongGuesses: integer('wrong_guesses').notNull().default(0),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
  },
  (table) => [index('email_codes_email_created').on(table.email, table.createdAt)],
)
