import 'server-only'
import { createHmac, timingSafeEqual } from 'node:crypto'

const VERSION = 'v1'

/** A visitor token `v1.<visitorId>.<hmac>`: the agent keeps copies; only this server can mint one. */
export function signVisitorToken(visitorId: string, secret: string): string {
  return `${VERSION}.${visitorId}.${mac(visitorId, secret)}`
}

/** The visitor ID inside a token, or undefined when it is malformed or was not signed by us. */
export function verifyVisitorToken(token: string | undefined, secret: string): string | undefined {
  if (!token) return undefined
  const [version, visitorId, signature] = token.split('.')
  if (version !== VERSION || !visitorId || !signature) return undefined
  const expected = Buffer.from(mac(visitorId, secret))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given) ? visitorId : undefined
}

function mac(visitorId: string, secret: string): string {
  return createHmac('sha256', secret).update(`visitor:${visitorId}`).digest('base64url').slice(0, 32)
}
