import 'server-only'
import { randomBytes } from 'node:crypto'

/** 20 URL-safe characters (120 random bits). */
export function newVisitorId(): string {
  return randomBytes(15).toString('base64url')
}

/** Time-ordered request ID: milliseconds, then 60 random bits. */
export function newRequestId(now: Date): string {
  return `${now.getTime().toString(36)}.${randomBytes(8).toString('base64url').slice(0, 10)}`
}
