import 'server-only'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * What a visitor token proves: which visitor this browser was last identified as, and this
 * browser's own secret ID. The browser ID is random, minted for a browser that presents no valid
 * token and never derived from a fingerprint, so holding it means having been this browser: it is
 * what unlocks the browser's own data (export, forget), never a fingerprint match.
 */
export interface VisitorToken {
  visitorId: string
  /** Absent in tokens minted before browser IDs existed (v1): those prove no data access. */
  browserId?: string
}

/** 22 URL-safe characters (128 random bits). */
export function newBrowserId(): string {
  return randomBytes(16).toString('base64url')
}

/** A visitor token `v2.<visitorId>.<browserId>.<hmac>`: the agent keeps copies; only this server can mint one. */
export function signVisitorToken(token: Required<VisitorToken>, secret: string): string {
  return `v2.${token.visitorId}.${token.browserId}.${mac(`${token.visitorId}:${token.browserId}`, secret)}`
}

/** What a token proves, or undefined when it is malformed or was not signed by this server. */
export function verifyVisitorToken(token: string | undefined, secret: string): VisitorToken | undefined {
  if (!token) return undefined
  const [version, visitorId, third, fourth] = token.split('.')
  if (!visitorId) return undefined
  if (version === 'v1' && third && fourth === undefined) {
    return matches(third, mac(visitorId, secret)) ? { visitorId } : undefined
  }
  if (version === 'v2' && third && fourth) {
    return matches(fourth, mac(`${visitorId}:${third}`, secret)) ? { visitorId, browserId: third } : undefined
  }
  return undefined
}

function matches(given: string, expected: string): boolean {
  const left = Buffer.from(given)
  const right = Buffer.from(expected)
  return left.length === right.length && timingSafeEqual(left, right)
}

function mac(subject: string, secret: string): string {
  return createHmac('sha256', secret).update(`visitor:${subject}`).digest('base64url').slice(0, 32)
}
