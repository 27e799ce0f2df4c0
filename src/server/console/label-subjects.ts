import 'server-only'
import { eq, sql } from 'drizzle-orm'
import type { Label } from '@/contracts/console'
import { type Database, violatedConstraint } from '../db/client'
import { accountLabels, accounts, visitorLabels } from '../db/schema'
import { HttpError } from '../http/errors'

/**
 * Labels a visitor fraud or good (replacing its label); 404 for an unknown visitor. With
 * `keepLabelsAfter`, a label set after that moment stays (a review of an older sign-up does not
 * overrule a newer judgement).
 */
export async function labelVisitor({
  db,
  visitorId,
  label,
  operator,
  now = new Date(),
  keepLabelsAfter,
}: {
  db: Database
  visitorId: string
  label: Label
  operator: string
  now?: Date
  keepLabelsAfter?: string
}) {
  try {
    await db
      .insert(visitorLabels)
      .values({ visitorId, label, operator, labelledAt: now.toISOString() })
      .onConflictDoUpdate({
        target: visitorLabels.visitorId,
        set: { label, operator, labelledAt: now.toISOString() },
        ...(keepLabelsAfter && {
          setWhere: sql`${visitorLabels.labelledAt} <= ${keepLabelsAfter}::timestamptz`,
        }),
      })
  } catch (error) {
    if (violatedConstraint(error) === 'visitor_labels_visitor_id_visitors_id_fk')
      throw new HttpError('not_found', 'No visitor has this ID.')
    throw error
  }
}

/** Labels an account fraud or good (replacing its label, but one set after `keepLabelsAfter`); 404 for an unknown account. */
export async function labelAccount({
  db,
  accountId,
  label,
  operator,
  now = new Date(),
  keepLabelsAfter,
}: {
  db: Database
  accountId: string
  label: Label
  operator: string
  now?: Date
  keepLabelsAfter?: string
}) {
  const [account] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId))
  if (!account) throw new HttpError('not_found', 'No account has this ID.')
  await db
    .insert(accountLabels)
    .values({ accountId, label, operator, labelledAt: now.toISOString() })
    .onConflictDoUpdate({
      target: accountLabels.accountId,
      set: { label, operator, labelledAt: now.toISOString() },
      ...(keepLabelsAfter && {
        setWhere: sql`${accountLabels.labelledAt} <= ${keepLabelsAfter}::timestamptz`,
      }),
    })
}

/** Removes a visitor's label; 404 when it had none, so a typo is not taken for a success. */
export async function unlabelVisitor({ db, visitorId }: { db: Database; visitorId: string }) {
  const deleted = await db
    .delete(visitorLabels)
    .where(eq(visitorLabels.visitorId, visitorId))
    .returning({ id: visitorLabels.visitorId })
  if (deleted.length === 0) throw new HttpError('not_found', 'This visitor has no label.')
}

export async function unlabelAccount({ db, accountId }: { db: Database; accountId: string }) {
  const deleted = await db
    .delete(accountLabels)
    .where(eq(accountLabels.accountId, accountId))
    .returning({ id: accountLabels.accountId })
  if (deleted.length === 0) throw new HttpError('not_found', 'This account has no label.')
}
