import 'server-only'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Label, ReviewQueue } from '@/contracts/console'
import { type Database, selectRows } from '../db/client'
import { FOR_REVIEW, signupDecisions, visitors } from '../db/schema'
import { HttpError } from '../http/errors'
import { labelAccount, labelVisitor } from './label-subjects'
import { decisionColumns } from './list-signup-decisions'

/** How far back the queue reaches: older sign-ups are history, not work. */
export const REVIEW_DAYS = 30
const PAGE = 50

const waitingForReview = (since: string) =>
  and(FOR_REVIEW, isNull(signupDecisions.review), sql`${signupDecisions.createdAt} > ${since}::timestamptz`)

/**
 * Challenged and denied sign-ups of the last 30 days that no one reviewed yet, newest first (the
 * first 50), and whether more wait.
 */
export async function listReviewQueue({
  db,
  site,
  now = new Date(),
}: {
  db: Database
  /** One site's public key; every site's when absent. */
  site?: string
  now?: Date
}): Promise<ReviewQueue> {
  const since = new Date(now.getTime() - REVIEW_DAYS * 86_400_000).toISOString()
  // One more than a page: whether more wait, without counting a flood (an attack's thousands).
  const rows = await db
    .select(decisionColumns)
    .from(signupDecisions)
    .where(and(waitingForReview(since), site ? eq(signupDecisions.siteKey, site) : undefined))
    .orderBy(desc(signupDecisions.createdAt))
    .limit(PAGE + 1)
  return { decisions: rows.slice(0, PAGE), moreWaiting: rows.length > PAGE, days: REVIEW_DAYS }
}

/**
 * An analyst's verdict on one challenged or denied sign-up, in one transaction: the decision is
 * marked reviewed, and its visitor (and account, when one was made) labelled good on approval or
 * fraud on rejection (but a label set after the sign-up stays), so the rules treat the device
 * accordingly from its next sign-up on. A sign-up allowed without a challenge, or refused because its
 * address had an account, is not for review (409), nor one already reviewed (409: two analysts do not
 * decide the same one twice).
 */
export async function reviewSignup({
  db,
  requestId,
  verdict,
  operator,
  now = new Date(),
}: {
  db: Database
  requestId: string
  verdict: 'approve' | 'reject'
  operator: string
  now?: Date
}): Promise<{ review: 'approved' | 'rejected'; visitorLabel: Label | null; accountLabel: Label | null }> {
  const review = verdict === 'approve' ? 'approved' : 'rejected'
  const label: Label = verdict === 'approve' ? 'good' : 'fraud'
  return db.transaction(async (tx) => {
    const [marked] = await tx
      .update(signupDecisions)
      .set({ review, reviewedBy: operator, reviewedAt: now.toISOString() })
      .where(and(eq(signupDecisions.requestId, requestId), FOR_REVIEW, isNull(signupDecisions.review)))
      .returning({
        visitorId: signupDecisions.visitorId,
        accountId: signupDecisions.accountId,
        createdAt: signupDecisions.createdAt,
      })
    if (!marked) {
      const [decision] = await tx
        .select({ review: signupDecisions.review })
        .from(signupDecisions)
        .where(eq(signupDecisions.requestId, requestId))
      if (!decision) throw new HttpError('not_found', 'No sign-up decision has this request ID.')
      throw new HttpError(
        'conflict',
        decision.review
          ? `This sign-up was already ${decision.review}.`
          : 'This sign-up is not for review: it was allowed without a challenge, or its address already had an account.',
      )
    }
    // A label set after this sign-up stays: an analyst's later judgement of the device wins.
    const keepLabelsAfter = marked.createdAt
    // A forgotten visitor has no row left to label; its decision is still reviewed.
    const [visitor] = marked.visitorId
      ? await tx.select({ id: visitors.id }).from(visitors).where(eq(visitors.id, marked.visitorId))
      : []
    if (visitor) await labelVisitor({ db: tx, visitorId: visitor.id, label, operator, now, keepLabelsAfter })
    if (marked.accountId)
      await labelAccount({ db: tx, accountId: marked.accountId, label, operator, now, keepLabelsAfter })
    const [labels] = await selectRows(
      tx,
      {
        visitorLabel: sql<Label | null>`(select label from visitor_labels where visitor_id = ${marked.visitorId})`,
        accountLabel: sql<Label | null>`(select label from account_labels where account_id = ${marked.accountId})`,
      },
      (select) => sql`select ${select}`,
    )
    return { review, visitorLabel: labels?.visitorLabel ?? null, accountLabel: labels?.accountLabel ?? null }
  })
}
