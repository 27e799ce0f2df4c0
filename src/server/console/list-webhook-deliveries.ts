import 'server-only'
import { desc, eq } from 'drizzle-orm'
import type { WebhookDeliveryList } from '@/contracts/console'
import type { Database } from '../db/client'
import { webhookDeliveries, webhooks } from '../db/schema'
import { HttpError } from '../http/errors'

/** A webhook's delivery log, newest first; an unknown webhook is not_found. */
export async function listWebhookDeliveries({
  db,
  webhookId,
  limit = 50,
}: {
  db: Database
  webhookId: string
  limit?: number
}): Promise<WebhookDeliveryList> {
  const [webhook] = await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, webhookId))
  if (!webhook) throw new HttpError('not_found', 'No webhook has this ID.')
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      eventType: webhookDeliveries.eventType,
      createdAt: webhookDeliveries.createdAt,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      failedAt: webhookDeliveries.failedAt,
      lastStatus: webhookDeliveries.lastStatus,
      lastError: webhookDeliveries.lastError,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit)
  return { deliveries }
}
