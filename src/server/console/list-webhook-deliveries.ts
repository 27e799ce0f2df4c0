import 'server-only'
import { and, desc, eq } from 'drizzle-orm'
import type { WebhookDeliveryDetail, WebhookDeliveryList } from '@/contracts/console'
import type { Database } from '../db/client'
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema'
import { HttpError } from '../http/errors'
import { MAX_ATTEMPTS } from '../webhooks/deliver-due-webhooks'

const deliveryColumns = {
  id: webhookDeliveries.id,
  eventType: webhookDeliveries.eventType,
  createdAt: webhookDeliveries.createdAt,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  deliveredAt: webhookDeliveries.deliveredAt,
  failedAt: webhookDeliveries.failedAt,
  lastStatus: webhookDeliveries.lastStatus,
  lastError: webhookDeliveries.lastError,
}

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
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit)
  return { deliveries }
}

/** One delivery of a webhook and each of its attempts, newest first; not_found unless it is this webhook's. */
export async function readWebhookDelivery({
  db,
  webhookId,
  deliveryId,
}: {
  db: Database
  webhookId: string
  deliveryId: string
}): Promise<WebhookDeliveryDetail> {
  const [delivery] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)))
  if (!delivery) throw new HttpError('not_found', 'This webhook has no delivery with this ID.')
  const attempts = await db
    .select({
      attemptedAt: webhookAttempts.attemptedAt,
      durationMs: webhookAttempts.durationMs,
      requestHeaders: webhookAttempts.requestHeaders,
      requestBody: webhookAttempts.requestBody,
      status: webhookAttempts.status,
      error: webhookAttempts.error,
      responseBody: webhookAttempts.responseBody,
    })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(desc(webhookAttempts.attemptedAt))
    .limit(MAX_ATTEMPTS + 5)
  return { delivery, attempts }
}
