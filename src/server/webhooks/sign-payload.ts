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
