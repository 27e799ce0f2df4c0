import 'server-only'
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { StoredEvent } from '@/contracts/server-api'
import type { Database } from '../db/client'
import { sites, webhookDeliveries, webhooks } from '../db/schema'
import { HttpError } from '../http/errors'

/**
 * Queues a test delivery for a webhook: an identification made up for the purpose (`tag.test`
 * true, request and visitor IDs starting `test_`), signed and sent as any other, through the same
 * outbox and the same log. Answers the delivery's ID; not_found for an unknown webhook.
 */
export async function queueTestDelivery({ db, webhookId }: { db: Database; webhookId: string }) {
  const [webhook] = await db
    .select({ siteKey: sites.publicKey })
    .from(webhooks)
    .innerJoin(sites, eq(sites.id, webhooks.siteId))
    .where(eq(webhooks.id, webhookId))
  if (!webhook) throw new HttpError('not_found', 'No webhook has this ID.')
  const suffix = randomBytes(9).toString('base64url')
  const event: StoredEvent = {
    requestId: `test_${suffix}`,
    visitorId: 'test_visitor',
    visitorFound: false,
    createdAt: new Date().toISOString(),
    confidence: { score: 1 },
    ip: '192.0.2.1',
    userAgent: 'Tessera test delivery',
    url: null,
    siteKey: webhook.siteKey,
    tag: { test: true },
    linkedId: null,
    signals: {},
    suspectScore: 0,
  }
  const id = `wd_test_${suffix}`
  await db
    .insert(webhookDeliveries)
    .values({ id, webhookId, eventType: 'test', payload: { type: 'test', event } })
  return { deliveryId: id }
}
