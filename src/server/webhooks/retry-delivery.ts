import 'server-only'
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { webhookDeliveries } from '../db/schema'
import { HttpError } from '../http/errors'

/**
 * "Retry now": makes an undelivered delivery of this webhook due at once, a given-up one included
 * (its attempts go on counting). A delivered one, or another webhook's, is not_found.
 */
export async function retryDeliveryNow({
  db,
  webhookId,
  deliveryId,
}: {
  db: Database
  webhookId: string
  deliveryId: string
}) {
  const retried = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: sql`now()`, failedAt: null })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.webhookId, webhookId),
        isNull(webhookDeliveries.deliveredAt),
      ),
    )
    .returning({ id: webhookDeliveries.id })
  if (retried.length === 0)
    throw new HttpError('not_found', 'This webhook has no undelivered delivery with this ID.')
}
