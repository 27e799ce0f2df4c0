import 'server-only'
import { readCookie } from '../http/cookies'
import { isHttps } from '../http/is-https'

export const VISITOR_COOKIE = 'tessera_vid'
/** Header the agent uses to present its stored token when third-party cookies are blocked. */
export const VISITOR_TOKEN_HEADER = 'x-tessera-visitor-token'
const ONE_YEAR = 365 * 24 * 60 * 60

/**
 * The persistent identifier cookie. Over HTTPS it also works inside a third-party iframe
 * (SameSite=None; Secure; Partitioned — CHIPS); over plain HTTP browsers require SameSite=Lax.
 */
export function visitorCookie(request: Request, token: string): string {
  const base = `${VISITOR_COOKIE}=${token}; Path=/; Max-Age=${ONE_YEAR}; HttpOnly`
  return isHttps(request) ? `${base}; SameSite=None; Secure; Partitioned` : `${base}; SameSite=Lax`
}

export function clearedVisitorCookie(request: Request): string {
  const base = `${VISITOR_COOKIE}=; Path=/; Max-Age=0; HttpOnly`
  return isHttps(request) ? `${base}; SameSite=None; Secure; Partitioned` : `${base}; SameSite=Lax`
}

/** The token from the cookie, else from the agent's header. */
export function presentedToken(request: Request): string | undefined {
  return readCookie(request, VISITOR_COOKIE) || request.headers.get(VISITOR_TOKEN_HEADER) || undefined
}
