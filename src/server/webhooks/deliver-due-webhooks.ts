import 'server-only'
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { type Database, type RowOf, selectRows, violatedConstraint } from '../db/client'
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema'
import { getEnv } from '../env'
import { readEventContexts } from '../fingerprint/read-fingerprint-events'
import type { EventContext } from '../fingerprint/to-fingerprint-event'
import { postWebhook } from './post-webhook'
import { isDeliveryPayload, renderDelivery } from './render-delivery'
import type { Resolve } from './webhook-target'

/** Retries with exponential back-off from 2 s up to one hour, for about a day in all. */
export const MAX_ATTEMPTS = 20
const BATCH = 20
const TIMEOUT_MS = 10_000
/** How much of each request body the attempt log keeps (a delivery's payload is a few KB). */
const REQUEST_EXCERPT_CHARS = 4000

export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 2 ** attempts)
}

// The deliveries this run claimed (the query's `claimed`), with their webhook: what one attempt needs.
const claimed = alias(webhookDeliveries, 'claimed')
const dueDelivery = {
  id: claimed.id,
  url: webhooks.url,
  secret: webhooks.secret,
  format: webhooks.format,
  payload: claimed.payload,
  attempts: claimed.attempts,
}
type DueDelivery = RowOf<typeof dueDelivery>

/**
 * Claims due deliveries (a lease, so several app servers never send the same one at once),
 * sends each, and records the outcome. Returns how many were attempted.
 */
export async function deliverDueWebhooks({
  db,
  now = new Date(),
  allowPrivate = getEnv().TESSERA_WEBHOOK_ALLOW_PRIVATE,
  resolve,
}: {
  db: Database
  now?: Date
  /** Deliver to private and local networks too: tests' loopback receivers only. */
  allowPrivate?: boolean
  resolve?: Resolve
}) {
  const due = await selectRows(
    db,
    dueDelivery,
    (select) => sql`with claimed as (
          update webhook_deliveries set locked_until = ${now.toISOString()}::timestamptz + interval '60 seconds'
          where id in (
            select id from webhook_deliveries
            where delivered_at is null and failed_at is null and next_attempt_at <= ${now.toISOString()}
              and (locked_until is null or locked_until < ${now.toISOString()})
              -- A deleted webhook's deliveries wait: restored, they go on; purged, they go with it.
              and not exists (select 1 from webhooks w where w.id = webhook_id and w.deleted_at is not null)
            order by next_attempt_at limit ${BATCH} for update skip locked)
          returning id, webhook_id, payload, attempts)
        select ${select} from claimed join webhooks on webhooks.id = claimed.webhook_id`,
  )
  // An identification's body tells its visitor's label, Fingerprint's the visitor's history on the
  // site: one read for the whole batch.
  const contexts = await readEventContexts(
    db,
    due.flatMap((delivery) =>
      isDeliveryPayload(delivery.payload) && delivery.payload.type !== 'signup'
        ? [delivery.payload.event.requestId]
        : [],
    ),
  )
  await Promise.all(due.map((delivery) => attempt(db, delivery, now, { allowPrivate, resolve, contexts })))
  return due.length
}

async function attempt(
  db: Database,
  delivery: DueDelivery,
  now: Date,
  { contexts, ...options }: { allowPrivate: boolean; resolve?: Resolve; contexts: Map<string, EventContext> },
) {
  const timestamp = Math.floor(now.getTime() / 1000)
  const started = performance.now()
  let status: number | null = null
  let error: string | null = null
  let responseBody: string | null = null
  let sent: { headers: Record<string, string>; body: string } = { headers: {}, body: '' }
  try {
    if (!isDeliveryPayload(delivery.payload)) throw new Error('The queued delivery has no event.')
    const { body, headers } = renderDelivery({
      format: delivery.format,
      payload: delivery.payload,
      secret: delivery.secret,
      timestamp,
      context: contexts.get(delivery.payload.event.requestId),
    })
    sent = {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Tessera-Webhook/1',
        ...headers,
        'tessera-delivery': delivery.id,
      },
      body,
    }
    const answer = await postWebhook({ url: delivery.url, ...sent, timeoutMs: TIMEOUT_MS, ...options })
    status = answer.status
    responseBody = answer.excerpt
    if (status < 200 || status >= 300) error = `The receiver answered HTTP ${status}.`
  } catch (failure) {
    // A refused target is logged by its refusal only: what answers there must not show.
    error = failure instanceof Error ? failure.message : String(failure)
  }
  const attempts = delivery.attempts + 1
  const logged = {
    id: `wa_${randomBytes(9).toString('base64url')}`,
    deliveryId: delivery.id,
    attemptedAt: now.toISOString(),
    durationMs: Math.round(performance.now() - started),
    requestHeaders: sent.headers,
    requestBody: sent.body.slice(0, REQUEST_EXCERPT_CHARS),
    status,
    error,
    responseBody,
  }
  try {
    await db.insert(webhookAttempts).values(logged)
  } catch (failure) {
    // The webhook (and its deliveries) was deleted while this attempt ran: nothing left to log.
    if (violatedConstraint(failure) === 'webhook_attempts_delivery_id_webhook_deliveries_id_fk') return
    throw failure
  }
  if (!error) {
    await db
      .update(webhookDeliveries)
      .set({
        deliveredAt: now.toISOString(),
        attempts,
        lastStatus: status,
        lastError: null,
        lockedUntil: null,
      })
      .where(eq(webhookDeliveries.id, delivery.id))
    return
  }
  const next = new Date(now.getTime() + retryDelaySeconds(attempts) * 1000)
  await db
    .update(webhookDeliveries)
    .set({
      attempts,
      lastStatus: status,
      lastError: error,
      nextAttemptAt: next.toISOString(),
      lockedUntil: null,
      failedAt: attempts >= MAX_ATTEMPTS ? now.toISOString() : null,
    })
    .where(eq(webhookDeliveries.id, delivery.id))
}
