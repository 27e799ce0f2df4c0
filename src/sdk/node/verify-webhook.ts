import { createHmac, timingSafeEqual } from 'node:crypto'

export interface VerifyWebhookOptions {
  /**
   * Oldest (and furthest in the future) a delivery's timestamp may be, in seconds.
   * @default 300
   */
  toleranceSeconds?: number
  /** The current time in ms, for tests. @default Date.now() */
  now?: number
}

/** The name of the header Tessera signs each webhook delivery with. */
export const WEBHOOK_SIGNATURE_HEADER = 'tessera-signature'

/**
 * Whether a webhook delivery is Tessera's, unaltered and fresh. `rawBody` is the request body
 * exactly as received (not re-serialised JSON), `header` the `tessera-signature` header:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the webhook's secret.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  /** As Node.js gives it (`request.headers['tessera-signature']`): a repeated header is refused. */
  header: string | readonly string[] | null | undefined,
  secret: string | undefined,
  { toleranceSeconds = 300, now = Date.now() }: VerifyWebhookOptions = {},
): boolean {
  if (typeof header !== 'string' || !header || !secret) return false
  const fields = new Map<string, string[]>()
  for (const part of header.split(',')) {
    const separator = part.indexOf('=')
    if (separator < 0) continue
    const name = part.slice(0, separator).trim()
    fields.set(name, [...(fields.get(name) ?? []), part.slice(separator + 1).trim()])
  }
  const timestamp = fields.get('t')?.[0] ?? ''
  if (!/^\d{1,12}$/.test(timestamp)) return false
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody)
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest()
  // Any v1 entry may match: a sender rotating secrets could list more than one.
  return (fields.get('v1') ?? []).some((signature) => {
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false
    return timingSafeEqual(Buffer.from(signature, 'hex'), expected)
  })
}
