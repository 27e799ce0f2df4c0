import 'server-only'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Label, ReviewQueue } from '@/contracts/console'
import { type Database, selectRows } from '../db/client'
import {
  accountLabels,
  FOR_REVIEW,
  type PriorLabel,
  type ReviewUndo,
  signupDecisions,
  visitorLabels,
  visitors,
} from '../db/schema'
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
        .select({ review: signupDecisions.review, supersededBy: signupDecisions.supersededBy })
        .from(signupDecisions)
        .where(eq(signupDecisions.requestId, requestId))
      if (!decision) throw new HttpError('not_found', 'No sign-up decision has this request ID.')
      throw new HttpError(
        'conflict',
        decision.review
          ? `This sign-up was already ${decision.review}.`
          : decision.supersededBy
            ? `This challenge was answered by a later attempt (${decision.supersededBy}): review that one.`
            : 'This sign-up is not for review: it was allowed without a challenge, or its address already had an account.',
      )
    }
    // A label set after this sign-up stays: an analyst's later judgement of the device wins.
    const keepLabelsAfter = marked.createdAt
    // What each label was before, kept where the review replaced it, so the verdict can be undone.
    const undo: ReviewUndo = {}
    // A forgotten visitor has no row left to label; its decision is still reviewed.
    const [visitor] = marked.visitorId
      ? await tx.select({ id: visitors.id }).from(visitors).where(eq(visitors.id, marked.visitorId))
      : []
    if (visitor) {
      const before = await priorLabel(tx, visitorLabels, visitorLabels.visitorId, visitor.id)
      await labelVisitor({ db: tx, visitorId: visitor.id, label, operator, now, keepLabelsAfter })
      if (await setAt(tx, visitorLabels, visitorLabels.visitorId, visitor.id, now)) undo.visitor = before
    }
    if (marked.accountId) {
      const before = await priorLabel(tx, accountLabels, accountLabels.accountId, marked.accountId)
      await labelAccount({ db: tx, accountId: marked.accountId, label, operator, now, keepLabelsAfter })
      if (await setAt(tx, accountLabels, accountLabels.accountId, marked.accountId, now))
        undo.account = before
    }
    await tx.update(signupDecisions).set({ reviewUndo: undo }).where(eq(signupDecisions.requestId, requestId))
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

type LabelTable = typeof visitorLabels | typeof accountLabels
type LabelKey = typeof visitorLabels.visitorId | typeof accountLabels.accountId

/** A subject's label as it is now (null: none). */
async function priorLabel(
  db: Database,
  table: LabelTable,
  key: LabelKey,
  id: string,
): Promise<PriorLabel | null> {
  const [row] = await db
    .select({ label: table.label, operator: table.operator, labelledAt: table.labelledAt })
    .from(table)
    .where(eq(key, id))
  return row ?? null
}

/** Whether the subject's label was set at `at` (by the review that set it then, not changed since). */
async function setAt(db: Database, table: LabelTable, key: LabelKey, id: string, at: Date): Promise<boolean> {
  const [row] = await db.select({ labelledAt: table.labelledAt }).from(table).where(eq(key, id))
  return row !== undefined && new Date(row.labelledAt).getTime() === at.getTime()
}

/** Puts back a label a review replaced, unless it changed since the review set it (a later judgement wins). */
async function restoreLabel(
  db: Database,
  table: LabelTable,
  key: LabelKey,
  id: string,
  prior: PriorLabel | null,
  reviewedAt: string,
) {
  const unchanged = and(eq(key, id), eq(table.labelledAt, reviewedAt))
  if (prior) await db.update(table).set(prior).where(unchanged)
  else await db.delete(table).where(unchanged)
}

/**
 * Undoes an analyst's own verdict, in one transaction: the sign-up waits for review again, and each
 * label the review set is put back as it was before (removed where there was none), unless it was
 * changed since. 404 for an unknown request ID; 409 for a sign-up without a verdict, another
 * analyst's verdict (they relabel in the visitor panel instead), one reviewed before verdicts could
 * be undone (what its labels replaced was not kept), or one a later verdict on the same device
 * followed: that later review kept this one's labels as its "before", so it is undone first.
 */
export async function undoReview({
  db,
  requestId,
  operator,
}: {
  db: Database
  requestId: string
  /** Who asks: only the analyst who gave the verdict takes it back. */
  operator: string
}): Promise<{ visitorLabel: Label | null; accountLabel: Label | null }> {
  return db.transaction(async (tx) => {
    const [decision] = await tx
      .select({
        review: signupDecisions.review,
        reviewedBy: signupDecisions.reviewedBy,
        reviewedAt: signupDecisions.reviewedAt,
        reviewUndo: signupDecisions.reviewUndo,
        visitorId: signupDecisions.visitorId,
        accountId: signupDecisions.accountId,
      })
      .from(signupDecisions)
      .where(eq(signupDecisions.requestId, requestId))
      .for('update')
    if (!decision) throw new HttpError('not_found', 'No sign-up decision has this request ID.')
    if (!decision.review || !decision.reviewedAt)
      throw new HttpError('conflict', 'This sign-up has no verdict to undo.')
    if (decision.reviewedBy !== operator)
      throw new HttpError(
        'conflict',
        `This verdict is ${decision.reviewedBy}'s: change the labels in the visitor panel instead.`,
      )
    const undo = decision.reviewUndo
    if (!undo)
      throw new HttpError(
        'conflict',
        'This verdict was given before verdicts could be undone: change the labels instead.',
      )
    // An account is made by one sign-up, so only the device can have a later verdict (by its sign-ups' index).
    const [later] = decision.visitorId
      ? await tx
          .select({ requestId: signupDecisions.requestId })
          .from(signupDecisions)
          .where(
            and(
              eq(signupDecisions.visitorId, decision.visitorId),
              sql`${signupDecisions.reviewedAt} > ${decision.reviewedAt}::timestamptz`,
            ),
          )
          .limit(1)
      : []
    if (later)
      throw new HttpError(
        'conflict',
        'A later verdict on the same device stands: undo that one first, or change the labels instead.',
      )
    if (decision.visitorId && undo.visitor !== undefined)
      await restoreLabel(
        tx,
        visitorLabels,
        visitorLabels.visitorId,
        decision.visitorId,
        undo.visitor,
        decision.reviewedAt,
      )
    if (decision.accountId && undo.account !== undefined)
      await restoreLabel(
        tx,
        accountLabels,
        accountLabels.accountId,
        decision.accountId,
        undo.account,
        decision.reviewedAt,
      )
    await tx
      .update(signupDecisions)
      .set({ review: null, reviewedBy: null, reviewedAt: null, reviewUndo: null })
      .where(eq(signupDecisions.requestId, requestId))
    const [labels] = await selectRows(
      tx,
      {
        visitorLabel: sql<Label | null>`(select label from visitor_labels where visitor_id = ${decision.visitorId})`,
        accountLabel: sql<Label | null>`(select label from account_labels where account_id = ${decision.accountId})`,
      },
      (select) => sql`select ${select}`,
    )
    return { visitorLabel: labels?.visitorLabel ?? null, accountLabel: labels?.accountLabel ?? null }
  })
}
