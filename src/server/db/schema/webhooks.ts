import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { WebhookEvent, WebhookFormat } from '../../../contracts/console'
import { sites } from './sites'
import { timestamptz } from './timestamptz'

/** A site's webhook: every identification (and, if asked, sign-up decision) is POSTed to `url`, signed with `secret`. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    /** The body and signature each delivery gets: Tessera's own, or Fingerprint Server API v4's event. */
    format: text('format').$type<WebhookFormat>().notNull().default('tessera'),
    /** What it is sent: identifications, sign-up decisions, or both. */
    events: text('events').array().$type<WebhookEvent[]>().notNull().default(sql`'{identification}'::text[]`),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
    /**
     * When an operator deleted it: nothing is queued or sent for it from then on, and for
     * WEBHOOK_RESTORE_MINUTES it can be restored; then it goes with its log (delete-webhook.ts).
     */
    deletedAt: timestamptz('deleted_at'),
  },
  (table) => [
    index('webhooks_site').on(table.siteId),
    check('webhooks_format', sql`${table.format} in ('tessera', 'fingerprint-v4')`),
    check(
      'webhooks_events',
      sql`cardinality(${table.events}) > 0 and ${table.events} <@ '{identification,signup}'::text[]`,
    ),
  ],
)

/**
 * The durable outbox: a row per event and webhook, written in the same statement as the event,
 * retried with exponential back-off until delivered. It doubles as the delivery log.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    /** The event's request ID, derived from the payload, so a forget finds its deliveries by index. */
    requestId: text('request_id').generatedAlwaysAs(sql`payload->'event'->>'requestId'`),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().default(sql`now()`),
    lockedUntil: timestamptz('locked_until'),
    deliveredAt: timestamptz('delivered_at'),
    failedAt: timestamptz('failed_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
  },
  (table) => [
    index('webhook_deliveries_due').on(table.nextAttemptAt),
    index('webhook_deliveries_webhook').on(table.webhookId, table.createdAt),
    index('webhook_deliveries_request').on(table.requestId),
  ],
)

/**
 * Every attempt of a delivery, as an operator debugging a receiver needs it: what was sent (the
 * headers and the start of the body) and what came back (status, or the error, and the start of
 * the answer). Deleted with its delivery (a forget, retention).
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamptz('attempted_at').notNull().default(sql`now()`),
    durationMs: integer('duration_ms').notNull(),
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull(),
    requestBody: text('request_body').notNull(),
    status: integer('status'),
    error: text('error'),
    responseBody: text('response_body'),
  },
  (table) => [index('webhook_attempts_delivery').on(table.deliveryId, table.attemptedAt)],
)
