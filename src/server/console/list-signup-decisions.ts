import 'server-only'
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { DecisionFilters, Label, SignupDecision, SignupDecisionList } from '@/contracts/console'
import { emailDomainOf } from '@/contracts/list-entry'
import { isStorableInstant } from '@/contracts/server-api'
import type { Database } from '../db/client'
import { signupDecisions } from '../db/schema'
import { HttpError } from '../http/errors'
import { isStorableText } from '../http/storable-text'

/** A sign-up decision as the console shows it. */
export const decisionColumns = {
  requestId: signupDecisions.requestId,
  visitorId: signupDecisions.visitorId,
  ip: signupDecisions.ip,
  email: signupDecisions.email,
  outcome: signupDecisions.outcome,
  reasons: signupDecisions.reasons,
  challengeSolved: signupDecisions.challengeSolved,
  accountId: signupDecisions.accountId,
  createdAt: signupDecisions.createdAt,
  siteName: sql<string | null>`(select s.name from sites s where s.public_key = signup_decisions.site_key)`,
  // Qualified by hand: Drizzle writes a lone table's columns unqualified, which inside these
  // subqueries would name the label's own column.
  visitorLabel: sql<Label | null>`(select l.label from visitor_labels l where l.visitor_id = signup_decisions.visitor_id)`,
  accountLabel: sql<Label | null>`(select l.label from account_labels l where l.account_id = signup_decisions.account_id)`,
  review: signupDecisions.review,
  reviewedBy: signupDecisions.reviewedBy,
  // The attempt that answered this challenge (record-signup.ts), by its primary key.
  answer: sql<SignupDecision['answer']>`(case when signup_decisions.superseded_by is null then null
    else json_build_object('requestId', signup_decisions.superseded_by, 'outcome',
      (select a.outcome from signup_decisions a where a.request_id = signup_decisions.superseded_by)) end)`,
}

/**
 * A decision's time to the millisecond, as pages are keyed: it is stored to the microsecond, and a
 * cursor carries what JavaScript holds, so without this a page would skip the rows of its last
 * one's millisecond that came before it.
 */
export const decisionMoment = sql`date_trunc('milliseconds', ${signupDecisions.createdAt})`

/** The decisions after a page's last one, newest first (created_at, then request ID). */
export function decisionsBefore(cursor: { createdAt: string; requestId: string }) {
  return sql`(${decisionMoment}, ${signupDecisions.requestId}) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})`
}

/** A filter's conditions: the outcome, and an address (any case) or `@domain` with its subdomains. */
function decisionConditions(filters: DecisionFilters): SQL[] {
  const conditions: SQL[] = []
  if (filters.outcome !== 'all') conditions.push(eq(signupDecisions.outcome, filters.outcome))
  if (filters.site) conditions.push(eq(signupDecisions.siteKey, filters.site))
  if (filters.email?.startsWith('@')) {
    const domain = emailDomainOf(`x${filters.email}`)
    if (domain === null)
      throw new HttpError('invalid_request', 'email: give an address, or a domain like @example.com.')
    // A domain holds only letters, digits, dots and hyphens: nothing LIKE reads as a wildcard.
    conditions.push(
      sql`(lower(${signupDecisions.email}) like ${`%@${domain}`} or lower(${signupDecisions.email}) like ${`%@%.${domain}`})`,
    )
  } else if (filters.email) {
    conditions.push(sql`lower(${signupDecisions.email}) = ${filters.email.toLowerCase()}`)
  }
  return conditions
}

/** The exact moment (to the microsecond, as stored) a page's cursor carries. */
const exactMoment = sql<string>`to_char(${signupDecisions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** The latest sign-up decisions with their reasons, newest first, filtered, a page at a time. */
export async function listSignupDecisions({
  db,
  filters = { outcome: 'all' },
  cursor,
  limit = 25,
}: {
  db: Database
  filters?: DecisionFilters
  cursor?: string
  limit?: number
}): Promise<SignupDecisionList> {
  const after = cursor ? decodeDecisionCursor(cursor) : undefined
  const rows = await db
    .select({ ...decisionColumns, exact: exactMoment })
    .from(signupDecisions)
    .where(
      and(
        ...decisionConditions(filters),
        after
          ? sql`(${signupDecisions.createdAt}, ${signupDecisions.requestId}) < (${after.createdAt}::timestamptz, ${after.requestId})`
          : undefined,
      ),
    )
    .orderBy(desc(signupDecisions.createdAt), desc(signupDecisions.requestId))
    .limit(limit + 1)
  const page = rows.slice(0, limit).map(({ exact: _exact, ...decision }) => decision)
  const last = rows[limit - 1]
  return {
    decisions: page,
    nextCursor:
      rows.length > limit && last
        ? Buffer.from(JSON.stringify([last.exact, last.requestId])).toString('base64url')
        : null,
  }
}

/**
 * A page cursor: the last decision's moment to the microsecond (a JavaScript date would drop the
 * microseconds, and the next page would skip the rows of that millisecond) and its request ID.
 */
function decodeDecisionCursor(cursor: string): { createdAt: string; requestId: string } {
  try {
    const [createdAt, requestId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (
      typeof createdAt === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(createdAt) &&
      isStorableInstant(Date.parse(createdAt)) &&
      typeof requestId === 'string' &&
      requestId.length <= 64 &&
      isStorableText(requestId)
    )
      return { createdAt, requestId }
  } catch {}
  throw new HttpError('invalid_request', 'The cursor is not valid; pass back nextCursor unchanged.')
}

/** The decisions' filters for export (the same conditions as the list's). */
export { decisionConditions }
