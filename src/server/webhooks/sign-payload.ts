import { createHmac } from 'node:crypto'

export const SIGNATURE_HEADER = 'tessera-signature'

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp is signed with the body,
 * so a receiver can refuse replays of old deliveries.
 */
export function signPayload({
  secret,
  body,
  timestamp,
}: {
  secret: string
  body: string
  timestamp: number
}) {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return `t=${timestamp},v1=${mac}`
}

/** The header Fingerprint's webhooks carry their signature in. */
export const FINGERPRINT_SIGNATURE_HEADER = 'fpjs-event-signature'

/**
 * Fingerprint's webhook signature: `v1=<hex HMAC-SHA256 of the body>` with the webhook's secret.
 * It signs no timestamp (Fingerprint's format has none); receivers deduplicate on the event ID.
 */
export function signFingerprintPayload({ secret, body }: { secret: string; body: string }) {
  return `v1=${createHmac('sha256', secret).update(body).digest('hex')}`
}
