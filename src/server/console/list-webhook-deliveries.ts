import 'server-only'
import { desc, eq } from 'drizzle-orm'
import type { WebhookDeliveryList } from '@/contracts/console'
import type { Database } from '../db/client'
import { webhookDeliveries } from '../db/schema'

/** A webhook's delivery log, newest first (an unknown webhook has none). */
export async function listWebhookDeliveries({
  db,
  webhookId,
  limit = 50,
}: {
  db: Database
  webhookId: string
  limit?: number
}): Promise<WebhookDeliveryList> {
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
