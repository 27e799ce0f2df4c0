import 'server-only'
import { desc, sql } from 'drizzle-orm'
import type { Label, SignupDecisionList } from '@/contracts/console'
import type { Database } from '../db/client'
import { signupDecisions } from '../db/schema'

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
  // Qualified by hand: Drizzle writes a lone table's columns unqualified, which inside these
  // subqueries would name the label's own column.
  visitorLabel: sql<Label | null>`(select l.label from visitor_labels l where l.visitor_id = signup_decisions.visitor_id)`,
  accountLabel: sql<Label | null>`(select l.label from account_labels l where l.account_id = signup_decisions.account_id)`,
  review: signupDecisions.review,
  reviewedBy: signupDecisions.reviewedBy,
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

/** The latest sign-up decisions with their reasons, newest first. */
export async function listSignupDecisions({
  db,
  limit = 25,
}: {
  db: Database
  limit?: number
}): Promise<SignupDecisionList> {
  const decisions = await db
    .select(decisionColumns)
    .from(signupDecisions)
    .orderBy(desc(signupDecisions.createdAt))
    .limit(limit)
  return { decisions }
}
