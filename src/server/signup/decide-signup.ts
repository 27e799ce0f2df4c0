import 'server-only'
import { randomBytes } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import { sql } from 'drizzle-orm'
import { fieldErrors } from '@/contracts/field-errors'
import {
  normaliseEmail,
  type SignupFields,
  SignupFields as SignupFieldsSchema,
  type SignupOutcome,
  type SignupRequest,
} from '@/contracts/signup'
import { type Database, queryRows, violatedConstraint } from '../db/client'
import { HttpError } from '../http/errors'
import { consumeRateLimit } from '../rate-limit/rate-limiter'
import { ACCOUNT_LIMIT_WINDOW_HOURS, deviceMark } from './device-mark'
import { PER_VISITOR_LIMIT } from './per-visitor-limit'
import { evaluatePolicy, type SignupFacts } from './policy/evaluate-policy'
import { readSignupPolicy } from './policy/read-policy'
import { verifyChallenge } from './proof-of-work'

/** An identification older than this cannot be used to sign up. */
export const MAX_EVENT_AGE_MS = 5 * 60 * 1000

interface EventFacts {
  visitor_id: string
  ip: string | null
  created_at: string | Date
  bot: string | null
  tampered: boolean | null
  suspect_score: number
  used: boolean
  profile: string | null
  visitor_attempts: number
  ip_attempts: number
}

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

  const [event] = await queryRows<EventFacts>(
    db,
    sql`select e.visitor_id, e.ip, e.created_at, e.signals->'bot'->>'result' as bot,
          (e.signals->'tampering'->>'result')::boolean as tampered, e.suspect_score,
          exists(select 1 from signup_decisions d where d.request_id = e.request_id) as used,
          (select v.profile::text from visitors v where v.id = e.visitor_id) as profile,
          (select count(*)::int from signup_decisions d
            where d.visitor_id = e.visitor_id and d.created_at > ${now.toISOString()}::timestamptz - interval '10 minutes') as visitor_attempts,
          (select count(*)::int from signup_decisions d
            where d.ip = ${context.ip} and d.created_at > ${now.toISOString()}::timestamptz - interval '10 minutes') as ip_attempts
        from events e where e.request_id = ${input.requestId}`,
  )
  if (!event)
    throw new HttpError('invalid_request', 'The device check is unknown; reload the page and try again.')
  if (event.used)
    throw new HttpError(
      'request_reused',
      'This device check was already used; reload the page to sign up again.',
    )
  if (now.getTime() - new Date(event.created_at).getTime() > MAX_EVENT_AGE_MS) {
    throw new HttpError('request_expired', 'The device check has expired; reload the page and try again.')
  }
  if (event.ip !== context.ip) {
    throw new HttpError(
      'invalid_request',
      'The device check came from another network; reload the page and try again.',
    )
  }

  await consumeRateLimit({ db, limit: PER_VISITOR_LIMIT, key: event.visitor_id })

  const mark = event.profile ? await deviceMark(db, event.profile) : null
  const facts: SignupFacts = {
    bot: event.bot === 'bad' || event.bot === 'good' ? event.bot : 'notDetected',
    tampered: event.tampered === true,
    suspectScore: event.suspect_score,
    accountsFromVisitor24h: await countRecentAccounts(db, event.visitor_id, mark, now),
    attemptsFromVisitor10m: event.visitor_attempts,
    attemptsFromIp10m: event.ip_attempts,
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
    await db.execute(
      sql`insert into signup_decisions (request_id, visitor_id, ip, email, outcome, reasons, challenge_solved)
          values (${input.requestId}, ${event.visitor_id}, ${context.ip}, ${fields.email}, ${outcome},
            ${JSON.stringify(decision.reasons)}::jsonb, false)
          on conflict (request_id) do nothing`,
    )
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

/**
 * Accounts created in the rule's window by this visitor, or by the same device under an earlier
 * visitor ID (forgotten since): the device mark is what survives a forget.
 */
async function countRecentAccounts(db: Database, visitorId: string, mark: string | null, now: Date) {
  const [row] = await queryRows<{ accounts: number }>(
    db,
    sql`select count(*)::int as accounts from accounts
        where (visitor_id = ${visitorId} or device_mark = ${mark})
          and created_at > ${now.toISOString()}::timestamptz - make_interval(hours => ${ACCOUNT_LIMIT_WINDOW_HOURS})`,
  )
  return row?.accounts ?? 0
}

async function createAccountWithDecision(
  db: Database,
  fields: SignupFields,
  event: EventFacts & { mark: string | null },
  input: SignupRequest,
  reasons: unknown[],
  challengeSolved: boolean,
): Promise<string> {
  const accountId = `acct_${randomBytes(9).toString('base64url')}`
  const passwordHash = await hash(fields.password)
  try {
    await db.transaction(async (tx) => {
      // The decision first: its primary key makes a replayed requestId fail here.
      await tx.execute(
        sql`insert into signup_decisions (request_id, visitor_id, ip, email, outcome, reasons, challenge_solved, account_id)
            values (${input.requestId}, ${event.visitor_id}, ${event.ip}, ${fields.email}, 'allow',
              ${JSON.stringify(reasons)}::jsonb, ${challengeSolved}, ${accountId})`,
      )
      await tx.execute(
        sql`insert into accounts (id, email, email_normalised, name, password_hash, visitor_id, device_mark)
            values (${accountId}, ${fields.email}, ${normaliseEmail(fields.email)}, ${fields.name},
              ${passwordHash}, ${event.visitor_id}, ${event.mark})`,
      )
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
