import 'server-only'
import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import { WEBHOOK_RESTORE_MINUTES } from '@/contracts/undo-windows'
import type { Database } from '../db/client'
import { webhooks } from '../db/schema'

const restoreWindow = sql`now() - make_interval(mins => ${WEBHOOK_RESTORE_MINUTES})`

/**
 * Deletes a webhook: from now on nothing is queued or sent for it. For WEBHOOK_RESTORE_MINUTES it
 * can be restored with its log and the deliveries it had waiting; after that it goes for good, with
 * them (purgeDeletedWebhooks). Idempotent.
 */
export async function deleteWebhook({ db, webhookId }: { db: Database; webhookId: string }) {
  await db
    .update(webhooks)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(webhooks.id, webhookId), isNull(webhooks.deletedAt)))
  await purgeDeletedWebhooks(db)
}

/** Undoes a deletion made in the last WEBHOOK_RESTORE_MINUTES; false when there is none to undo. */
export async function restoreWebhook({
  db,
  webhookId,
}: {
  db: Database
  webhookId: string
}): Promise<boolean> {
  const restored = await db
    .update(webhooks)
    .set({ deletedAt: null })
    .where(
      and(eq(webhooks.id, webhookId), isNotNull(webhooks.deletedAt), gt(webhooks.deletedAt, restoreWindow)),
    )
    .returning({ id: webhooks.id })
  return restored.length > 0
}

/** Removes the webhooks deleted longer ago than can be undone, with their logs (by cascade). */
export async function purgeDeletedWebhooks(db: Database): Promise<number> {
  const purged = await db
    .delete(webhooks)
    .where(and(isNotNull(webhooks.deletedAt), lt(webhooks.deletedAt, restoreWindow)))
    .returning({ id: webhooks.id })
  return purged.length
}
