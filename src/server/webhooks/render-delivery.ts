import 'server-only'
import type { WebhookFormat } from '@/contracts/console'
import type { StoredEvent } from '@/contracts/server-api'
import { type EventContext, toFingerprintEvent } from '../fingerprint/to-fingerprint-event'
import type { SignupDecisionEvent } from './queue-signup-deliveries'
import {
  FINGERPRINT_SIGNATURE_HEADER,
  SIGNATURE_HEADER,
  signFingerprintPayload,
  signPayload,
} from './sign-payload'

/**
 * What the outbox holds for each delivery, whatever the webhook's format: Tessera's own body. `test`
 * is a test delivery the operator asked for (queue-test-delivery.ts); `signup` a sign-up decision
 * (queue-signup-deliveries.ts).
 */
export type DeliveryPayload =
  | { type: 'identification' | 'test'; event: StoredEvent }
  | { type: 'signup'; event: SignupDecisionEvent }

/** Whether a stored payload has the shape every delivery has (an event with its request ID). */
export function isDeliveryPayload(payload: unknown): payload is DeliveryPayload {
  if (typeof payload !== 'object' || payload === null || !('event' in payload)) return false
  const event = payload.event
  return (
    typeof event === 'object' && event !== null && 'requestId' in event && typeof event.requestId === 'string'
  )
}

/**
 * The body and signature header of one delivery. Tessera's format sends the stored payload as it
 * is, signed over "<t>.<body>"; Fingerprint's sends the v4 event (as it was when identified: the
 * visitor's history up to it, no later suspect flag of the integrator's; `suspect` from the analyst's
 * label of the visitor, as identifications' `visitorLabel` is, as the label is when sent) with `fpjs-event-signature: v1=<hex HMAC>`,
 * which Fingerprint's `isValidWebhookSignature` checks.
 */
export function renderDelivery({
  format,
  payload,
  secret,
  timestamp,
  context,
}: {
  format: WebhookFormat
  payload: DeliveryPayload
  secret: string
  timestamp: number
  context?: EventContext
}): { body: string; headers: Record<string, string> } {
  if (format === 'fingerprint-v4') {
    if (payload.type === 'signup') throw new Error("Fingerprint's format has no sign-up decisions.")
    const body = JSON.stringify(
      toFingerprintEvent(payload.event, {
        firstSeenAt: context?.firstSeenAt,
        lastSeenAt: context?.lastSeenAt,
        visitorLabel: context?.visitorLabel,
      }),
    )
    return { body, headers: { [FINGERPRINT_SIGNATURE_HEADER]: signFingerprintPayload({ secret, body }) } }
  }
  // An identification carries its visitor's label as it is when sent (a sign-up decision, its own).
  const labelled =
    payload.type === 'signup' || context?.visitorLabel === undefined
      ? payload
      : { ...payload, event: { ...payload.event, visitorLabel: context.visitorLabel } }
  const body = JSON.stringify(labelled)
  return { body, headers: { [SIGNATURE_HEADER]: signPayload({ secret, body, timestamp }) } }
}
