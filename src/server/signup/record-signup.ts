import 'server-only'
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { normaliseEmail, type SignupFields } from '@/contracts/signup'
import type { SignupPolicy } from '@/contracts/signup-policy'
import { type Database, violatedConstraint } from '../db/client'
import { accounts, signupDecisions } from '../db/schema'
import { HttpError } from '../http/errors'
import { addressKey } from '../rate-limit/address-key'
import { queueSignupDeliveries } from '../webhooks/queue-signup-deliveries'
import { countRecentAccounts, type SignupDevice } from './count-recent-accounts'
import { mailboxOf } from './mailbox-of'
import { evaluatePolicy, type PolicyDecision, type Reason, type SignupFacts } from './policy/evaluate-policy'

const severity = { allow: 0, challenge: 1, deny: 2 } as const

/** Recorded (never shown to the visitor) when the address already has an account. */
export const EXISTING_ACCOUNT: Reason = {
  rule: 'existingAccount',
  outcome: 'deny',
  message:
    'An account with this email address already exists, so none was created. The visitor got the answer a new address gets, so sign-ups cannot reveal which addresses are registered.',
}

export interface SignupAttempt {
  requestId: string
  /** The identification's site (null: an event stored without one), whose webhooks hear of the decision. */
  siteKey: string | null
  ip: string | null
  fields: SignupFields
  device: SignupDevice
  /** The facts known before the lock; the account counts are taken again under it. */
  facts: Omit<
    SignupFacts,
    'accountsFromVisitor24h' | 'accountsByNewerBrowsers24h' | 'accountsForMailboxElsewhere24h'
  >
  policy: SignupPolicy
  /** The decision made before the lock: the one under it is never milder. */
  preliminary: PolicyDecision
  challengeSolved: boolean
  /** Hashed before the lock (argon2 takes tens of milliseconds); null when no account can follow. */
  passwordHash: string | null
  now: Date
}

/**
 * Decides and stores one sign-up under a lock on its device (visitor and device mark) and its
 * email address, so parallel sign-ups count each other's accounts: without it, eight at once all
 * counted none and all passed a limit of three. The decision is stored with its reasons; an
 * account is created only when allowed and the address is new. What the visitor is told
 * (`answered`) is the same whether or not the address already had an account.
 */
export async function recordSignup(
  db: Database,
  attempt: SignupAttempt,
): Promise<{ answered: PolicyDecision['outcome'] }> {
  const { device, fields } = attempt
  const email = normaliseEmail(fields.email)
  // The inbox's key covers the address's: one address is one inbox.
  const keys = [`signup-device:${device.visitorId}`, `signup-mailbox:${mailboxOf(email)}`]
  if (device.mark) keys.push(`signup-mark:${device.mark}`)
  try {
    return await db.transaction(async (tx) => {
      // Sorted, so two sign-ups sharing keys take them in one order and never deadlock.
      await tx.execute(
        sql`select pg_advisory_xact_lock(lock) from (
              select distinct hashtextextended(key, 0) as lock
              from unnest(${sql.param(keys)}::text[]) as key order by lock) as locks`,
      )
      const counts = await countRecentAccounts(tx, device, attempt.now, mailboxOf(email))
      const locked = evaluatePolicy({ ...attempt.facts, ...counts }, attempt.policy)
      const decision =
        severity[locked.outcome] >= severity[attempt.preliminary.outcome] ? locked : attempt.preliminary
      const outcome = decision.outcome === 'challenge' && attempt.challengeSolved ? 'allow' : decision.outcome
      const decided = {
        requestId: attempt.requestId,
        visitorId: device.visitorId,
        siteKey: attempt.siteKey,
        ip: attempt.ip,
        network: attempt.ip ? addressKey(attempt.ip) : null,
        email: fields.email,
        reasons: decision.reasons,
        challengeSolved: outcome === 'allow' && attempt.challengeSolved,
      }
      // Stored, then sent to the site's webhooks that asked for sign-up decisions, in one transaction.
      const store = async (
        row: typeof decided & { outcome: PolicyDecision['outcome']; accountId?: string },
      ) => {
        await tx.insert(signupDecisions).values({ ...row, facts: { ...attempt.facts, ...counts } })
        // The challenge this attempt answered: the device's latest one for this address, within a
        // challenge's 10 minutes, not reviewed yet. One sign-up then counts once, as this attempt
        // (attempt limits, the review queue); each solution answers one challenge, so solving
        // never wipes a run of attempts. Not by an attempt refused for an existing account, which
        // no review lists: the challenge stays in the queue for it.
        if (row.challengeSolved && !row.reasons.some((reason) => reason.rule === EXISTING_ACCOUNT.rule))
          await tx.execute(sql`update signup_decisions set superseded_by = ${row.requestId}
            where request_id = (select request_id from signup_decisions
              where visitor_id = ${row.visitorId} and lower(email) = lower(${row.email})
                and outcome = 'challenge' and superseded_by is null and review is null
                and request_id <> ${row.requestId}
                and created_at > ${attempt.now.toISOString()}::timestamptz - interval '10 minutes'
              order by created_at desc limit 1)`)
        await queueSignupDeliveries(tx, {
          siteKey: attempt.siteKey,
          decision: {
            requestId: row.requestId,
            visitorId: row.visitorId,
            createdAt: attempt.now.toISOString(),
            outcome: row.outcome,
            reasons: row.reasons,
            email: row.email,
            accountId: row.accountId ?? null,
            challengeSolved: row.challengeSolved,
            visitorLabel: attempt.facts.label ?? null,
          },
        })
      }
      if (outcome !== 'allow' || attempt.passwordHash === null) {
        await store({ ...decided, outcome: decision.outcome })
        return { answered: decision.outcome }
      }
      const [existing] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.emailNormalised, email))
      if (existing) {
        await store({ ...decided, outcome: 'deny', reasons: [...decision.reasons, EXISTING_ACCOUNT] })
        return { answered: 'allow' }
      }
      const accountId = `acct_${randomBytes(9).toString('base64url')}`
      await store({ ...decided, outcome: 'allow', accountId })
      await tx.insert(accounts).values({
        id: accountId,
        email: fields.email,
        emailNormalised: email,
        mailbox: mailboxOf(email),
        name: fields.name,
        passwordHash: attempt.passwordHash,
        visitorId: device.visitorId,
        deviceMark: device.mark,
        browserId: device.browserId,
      })
      return { answered: 'allow' }
    })
  } catch (error) {
    // The decision's primary key is the request ID: a replay racing its original fails here.
    if (violatedConstraint(error) === 'signup_decisions_pkey') {
      throw new HttpError(
        'request_reused',
        'This device check was already used; reload the page to sign up again.',
      )
    }
    throw error
  }
}
