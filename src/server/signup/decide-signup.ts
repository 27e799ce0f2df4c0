import 'server-only'
import { randomBytes } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import { and, eq, gt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { fieldErrors } from '@/contracts/field-errors'
import {
  normaliseEmail,
  type SignupFields,
  SignupFields as SignupFieldsSchema,
  type SignupOutcome,
  type SignupRequest,
} from '@/contracts/signup'
import { type Database, type RowOf, selectRows, violatedConstraint } from '../db/client'
import { accounts, events, signupDecisions } from '../db/schema'
import { HttpError } from '../http/errors'
import { consumeRateLimit } from '../rate-limit/rate-limiter'
import { ACCOUNT_LIMIT_WINDOW_HOURS, deviceMark } from './device-mark'
import { PER_VISITOR_LIMIT } from './per-visitor-limit'
import { evaluatePolicy, type PolicyDecision, type SignupFacts } from './policy/evaluate-policy'
import { readSignupPolicy } from './policy/read-policy'
import { verifyChallenge } from './proof-of-work'

/** An identification older than this cannot be used to sign up. */
export const MAX_EVENT_AGE_MS = 5 * 60 * 1000

/** What a sign-up decision reads of its identification event (`e`), at `now`. */
function eventFacts(now: Date, ip: string | null) {
  const event = alias(events, 'e')
  const tenMinutesAgo = sql`${now.toISOString()}::timestamptz - interval '10 minutes'`
  return {
    visitorId: event.visitorId,
    ip: event.ip,
    createdAt: event.createdAt,
    bot: sql<string | null>`e.signals->'bot'->>'result'`,
    tampered: sql<boolean | null>`(e.signals->'tampering'->>'result')::boolean`,
    agentProof: sql<string | null>`e.signals->'agentProof'->>'result'`,
    suspectScore: event.suspectScore,
    used: sql<boolean>`exists(select 1 from signup_decisions d where d.request_id = e.request_id)`,
    // The profile's jsonb text, whose key order is canonical (see device-mark.ts).
    profile: sql<string | null>`(select v.profile::text from visitors v where v.id = e.visitor_id)`,
    visitorAttempts: sql<number>`(select count(*)::int from signup_decisions d
      where d.visitor_id = e.visitor_id and d.created_at > ${tenMinutesAgo})`,
    ipAttempts: sql<number>`(select count(*)::int from signup_decisions d
      where d.ip = ${ip} and d.created_at > ${tenMinutesAgo})`,
  }
}
type EventFacts = RowOf<ReturnType<typeof eventFacts>>

/**
 * Decides one sign-up: validates the fields, loads the identification event itself (never a
 * visitor ID from the browser), refuses stale, replayed or foreign events, applies the policy, and
 * stores the decision (and, when allowed, the account) in one transaction.
 */
export async function decideSignup({
  db,
  input,
  context,
}: {
  db: Database
  input: SignupRequest
  context: { ip: string | null; now?: Date }
}): Promise<SignupOutcome> {
  const parsed = SignupFieldsSchema.safeParse(input.fields)
  if (!parsed.success) {
    throw new HttpError('invalid_request', 'Some fields need attention.', {
      fields: fieldErrors(parsed.error),
    })
  }
  const fields = parsed.data
  const now = context.now ?? new Date()

  const [event] = await selectRows(
    db,
    eventFacts(now, context.ip),
    (select) => sql`select ${select} from events e where e.request_id = ${input.requestId}`,
  )
  if (!event)
    throw new HttpError('invalid_request', 'The device check is unknown; reload the page and try again.')
  if (event.used)
    throw new HttpError(
      'request_reused',
      'This device check was already used; reload the page to sign up again.',
    )
  if (now.getTime() - Date.parse(event.createdAt) > MAX_EVENT_AGE_MS) {
    throw new HttpError('request_expired', 'The device check has expired; reload the page and try again.')
  }
  if (event.ip !== context.ip) {
    throw new HttpError(
      'invalid_request',
      'The device check came from another network; reload the page and try again.',
    )
  }

  await consumeRateLimit({ db, limit: PER_VISITOR_LIMIT, key: event.visitorId })

  const mark = event.profile ? await deviceMark(db, event.profile) : null
  const facts: SignupFacts = {
    bot: event.bot === 'bad' || event.bot === 'good' ? event.bot : 'notDetected',
    tampered: event.tampered === true,
    agentProof: agentProofOf(event.agentProof),
    suspectScore: event.suspectScore,
    accountsFromVisitor24h: await countRecentAccounts(db, event.visitorId, mark, now),
    attemptsFromVisitor10m: event.visitorAttempts,
    attemptsFromIp10m: event.ipAttempts,
  }
  const decision = evaluatePolicy(facts, await readSignupPolicy(db))
  const challengeSolved =
    decision.outcome === 'challenge' && input.challenge ? await verifyChallenge(db, input.challenge) : false
  // A solved challenge satisfies "challenge", never "deny".
  const outcome = decision.outcome === 'challenge' && challengeSolved ? 'allow' : decision.outcome

  const accountId =
    outcome === 'allow'
      ? await createAccountWithDecision(
          db,
          fields,
          { ...event, mark },
          input,
          decision.reasons,
          challengeSolved,
        )
      : undefined
  if (!accountId) {
    await db
      .insert(signupDecisions)
      .values({
        requestId: input.requestId,
        visitorId: event.visitorId,
        ip: context.ip,
        email: fields.email,
        outcome,
        reasons: decision.reasons,
        challengeSolved: false,
      })
      .onConflictDoNothing({ target: signupDecisions.requestId })
  }
  if (outcome === 'allow') return { outcome, name: fields.name }
  if (outcome === 'challenge') {
    return { outcome, message: 'Please confirm you are human: your browser will solve a short puzzle.' }
  }
  return {
    outcome,
    message:
      'We could not create an account from this device. If you think this is a mistake, contact the site’s support.',
  }
}

/** The agent-proof verdict stored on the event (compute-signals.ts); none stored is `unchecked`. */
function agentProofOf(stored: string | null): SignupFacts['agentProof'] {
  const verdicts = ['valid', 'missing', 'invalid', 'expired', 'reused'] as const
  return verdicts.find((verdict) => verdict === stored) ?? 'unchecked'
}

/**
 * Accounts created in the rule's window by this visitor, or by the same device under an earlier
 * visitor ID (forgotten since): the device mark is what survives a forget.
 */
async function countRecentAccounts(db: Database, visitorId: string, mark: string | null, now: Date) {
  const since = new Date(now.getTime() - ACCOUNT_LIMIT_WINDOW_HOURS * 3_600_000).toISOString()
  return db.$count(
    accounts,
    and(
      or(eq(accounts.visitorId, visitorId), mark === null ? undefined : eq(accounts.deviceMark, mark)),
      gt(accounts.createdAt, since),
    ),
  )
}

async function createAccountWithDecision(
  db: Database,
  fields: SignupFields,
  event: EventFacts & { mark: string | null },
  input: SignupRequest,
  reasons: PolicyDecision['reasons'],
  challengeSolved: boolean,
): Promise<string> {
  const accountId = `acct_${randomBytes(9).toString('base64url')}`
  const passwordHash = await hash(fields.password)
  try {
    await db.transaction(async (tx) => {
      // The decision first: its primary key makes a replayed requestId fail here.
      await tx.insert(signupDecisions).values({
        requestId: input.requestId,
        visitorId: event.visitorId,
        ip: event.ip,
        email: fields.email,
        outcome: 'allow',
        reasons,
        challengeSolved,
        accountId,
      })
      await tx.insert(accounts).values({
        id: accountId,
        email: fields.email,
        emailNormalised: normaliseEmail(fields.email),
        name: fields.name,
        passwordHash,
        visitorId: event.visitorId,
        deviceMark: event.mark,
      })
    })
  } catch (error) {
    const constraint = violatedConstraint(error)
    if (constraint === 'accounts_email_normalised') {
      throw new HttpError('email_taken', 'An account with this email already exists.', {
        fields: { email: 'An account with this email already exists. Sign in instead?' },
      })
    }
    if (constraint === 'signup_decisions_pkey') {
      throw new HttpError(
        'request_reused',
        'This device check was already used; reload the page to sign up again.',
      )
    }
    throw error
  }
  return accountId
}
