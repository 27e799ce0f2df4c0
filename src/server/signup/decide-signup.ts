import 'server-only'
import { hash } from '@node-rs/argon2'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { fieldErrors } from '@/contracts/field-errors'
import { type ListSubject, matchingListEntry } from '@/contracts/list-entry'
import { SignupFields, type SignupOutcome, type SignupRequest } from '@/contracts/signup'
import { type Database, selectRows } from '../db/client'
import { eventSignals } from '../db/packed-signals'
import { events } from '../db/schema'
import { HttpError } from '../http/errors'
import { addressKey } from '../rate-limit/address-key'
import { consumeRateLimit } from '../rate-limit/rate-limiter'
import { findSite } from '../sites/find-site'
import { type ChallengeContext, challengeKindFor, challenges } from './challenges'
import { configuredMailer, type Mailer } from './challenges/mailer'
import { countRecentAccounts, OLDER_BROWSER_LEAD_MINUTES, type SignupDevice } from './count-recent-accounts'
import { deviceMark } from './device-mark'
import { mailboxOf } from './mailbox-of'
import { browserBudgetKey, PER_VISITOR_LIMIT } from './per-visitor-limit'
import { evaluatePolicy } from './policy/evaluate-policy'
import { readSignupPolicy } from './policy/read-policy'
import { recordSignup } from './record-signup'

/** An identification older than this cannot be used to sign up. */
export const MAX_EVENT_AGE_MS = 5 * 60 * 1000

/** What a sign-up decision reads of its identification event (`e`), at `now`. */
function eventFacts(now: Date, ip: string | null) {
  const event = alias(events, 'e')
  const tenMinutesAgo = sql`${now.toISOString()}::timestamptz - interval '10 minutes'`
  return {
    visitorId: event.visitorId,
    browserId: event.browserId,
    // When this browser was first identified: how long it has held its token.
    browserFirstSeen: sql<
      string | null
    >`(select min(b.created_at) from events b where b.browser_id = e.browser_id)`,
    ip: event.ip,
    siteKey: event.siteKey,
    createdAt: event.createdAt,
    signals: eventSignals('e'),
    suspectScore: event.suspectScore,
    label: sql<string | null>`(select l.label from visitor_labels l where l.visitor_id = e.visitor_id)`,
    used: sql<boolean>`exists(select 1 from signup_decisions d where d.request_id = e.request_id)`,
    // The profile's jsonb text, whose key order is canonical (see device-mark.ts).
    profile: sql<string | null>`(select v.profile::text from visitors v where v.id = e.visitor_id)`,
    // A challenge a later attempt answered is that attempt's sign-up: counted once (record-signup.ts).
    visitorAttempts: sql<number>`(select count(*)::int from signup_decisions d
      where d.visitor_id = e.visitor_id and d.created_at > ${tenMinutesAgo} and d.superseded_by is null)`,
    ipAttempts: sql<number>`(select count(*)::int from signup_decisions d
      where ${fromNetworkOf(ip)} and d.created_at > ${tenMinutesAgo} and d.superseded_by is null)`,
  }
}

/**
 * The decisions (`d`) from the client's network, as its budgets count it (addressKey): an IPv4
 * address itself, an IPv6 address's whole /64, whose holder has 2^64 addresses to rotate through.
 * By the stored network, through its index (a match over every recent decision's address would
 * cost a flood of sign-ups the more, the longer it lasts).
 */
function fromNetworkOf(ip: string | null) {
  return ip ? sql`d.network = ${addressKey(ip)}` : sql`false`
}

/**
 * Decides one sign-up: validates the fields, loads the identification event itself (never a
 * visitor ID from the browser), refuses stale, replayed or foreign events, applies the policy, and
 * stores the decision (and, when allowed, the account) in one transaction under a lock on the
 * device and the address (record-signup.ts). An address that already has an account is answered
 * as a new one would be, after the same work, and the decision records why nothing was created.
 */
export async function decideSignup({
  db,
  input,
  context,
}: {
  db: Database
  input: SignupRequest
  /** `mailer`: where email codes go (the server's own, from TESSERA_SMTP_URL, unless given). */
  context: { ip: string | null; now?: Date; mailer?: Mailer | null }
}): Promise<SignupOutcome> {
  const parsed = SignupFields.safeParse(input.fields)
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
    { prepared: true },
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
  // The form is the default site's (Tessera's own /registration): its rules and lists decide. An
  // identification made under another site's key (a script may send any key) must not choose them.
  const formSite = await findSite({ db })
  if (event.siteKey !== null && event.siteKey !== formSite?.publicKey) {
    throw new HttpError(
      'invalid_request',
      'The device check was made for another site; reload this page and try again.',
    )
  }

  await consumeRateLimit({ db, limit: PER_VISITOR_LIMIT, key: signupBudgetKey(event, now) })

  const device: SignupDevice = {
    visitorId: event.visitorId,
    mark: event.profile ? await deviceMark(db, event.profile) : null,
    browserId: event.browserId,
    browserFirstSeen: event.browserFirstSeen,
  }
  const { signals } = event
  const facts = {
    bot: signals.bot?.result ?? 'notDetected',
    tampered: signals.tampering?.result === true,
    agentProof: signals.agentProof?.result ?? 'unchecked',
    suspectScore: event.suspectScore,
    network: {
      blocked: signals.ipBlocklist?.result === true,
      datacenter: signals.datacenter?.result === true,
      vpn: signals.vpn?.result === true && signals.vpn.confidence !== 'low',
      proxy: signals.proxy?.result === true,
      tor: signals.tor?.result === true,
    },
    attemptsFromVisitor10m: event.visitorAttempts,
    attemptsFromIp10m: event.ipAttempts,
    visitorsFromAddress1h: signals.ipVelocity?.result?.address.visitors['1h'] ?? 0,
    listed: listedEntries(formSite, {
      visitorId: event.visitorId,
      ip: context.ip,
      email: fields.email,
    }),
    label: event.label === 'fraud' || event.label === 'good' ? event.label : null,
  } as const
  // The rules of the form's site: its own, or the default it inherits.
  const policy = await readSignupPolicy(db, formSite?.publicKey)
  const preliminary = evaluatePolicy(
    { ...facts, ...(await countRecentAccounts(db, device, now, mailboxOf(fields.email))) },
    policy,
  )
  const mailer = context.mailer === undefined ? configuredMailer() : context.mailer
  const kind = challengeKindFor(policy.challengeKind, mailer)
  const challenge: ChallengeContext = { db, email: fields.email, mailer, ip: context.ip, now }
  const challengeSolved =
    preliminary.outcome === 'challenge' && input.challenge
      ? await challenges[kind].verify(challenge, input.challenge)
      : false
  // Hashed whenever an account may follow, whether or not the address is taken: argon2 is most of
  // the time an answer takes, so skipping it would tell the two apart.
  const passwordHash = preliminary.outcome === 'allow' || challengeSolved ? await hash(fields.password) : null

  const { answered } = await recordSignup(db, {
    requestId: input.requestId,
    siteKey: event.siteKey,
    ip: context.ip,
    fields,
    device,
    facts,
    policy,
    preliminary,
    challengeSolved,
    passwordHash,
    now,
  })
  if (answered === 'allow') return { outcome: 'allow', name: fields.name }
  if (answered === 'challenge') {
    const { wrongAnswer, issue } = challenges[kind]
    const message = input.challenge && wrongAnswer ? wrongAnswer : await issue(challenge)
    return { outcome: 'challenge', kind, message }
  }
  return {
    outcome: 'deny',
    message:
      'Sign-ups from this device are not accepted here. If you think this is a mistake, contact the site’s support.',
  }
}

/**
 * Whose sign-up budget an attempt spends: a browser that has held its token for an hour spends its
 * own, so replays of its fingerprint from other browsers never spend the owner's (SECURITY.md);
 * younger browsers (a cleared cookie, a private window) share their visitor's, so clearing storage
 * does not buy a new budget.
 */
function signupBudgetKey(
  event: { visitorId: string; browserId: string | null; browserFirstSeen: string | null },
  now: Date,
): string {
  const since = event.browserFirstSeen ? Date.parse(event.browserFirstSeen) : Number.NaN
  const established = now.getTime() - since >= OLDER_BROWSER_LEAD_MINUTES * 60_000
  return established && event.browserId ? browserBudgetKey(event.browserId) : event.visitorId
}

/** The first entries of the form's site's deny and allow lists the sign-up matches. */
function listedEntries(
  site: { denyList: readonly string[]; allowList: readonly string[] } | undefined,
  subject: ListSubject,
) {
  return {
    deny: site ? matchingListEntry(site.denyList, subject) : null,
    allow: site ? matchingListEntry(site.allowList, subject) : null,
  }
}
