import 'server-only'
import { buildCookie, clearCookie, readCookie } from '../http/cookies'

export const VISITOR_COOKIE = 'tessera_vid'
/** Header the agent uses to present its stored token when third-party cookies are blocked. */
export const VISITOR_TOKEN_HEADER = 'x-tessera-visitor-token'
const ONE_YEAR = 365 * 24 * 60 * 60

/** The persistent identifier cookie; it also works inside another site's iframe (/frame). */
export function visitorCookie(request: Request, token: string): string {
  return buildCookie(request, VISITOR_COOKIE, token, { maxAge: ONE_YEAR, reach: 'embeddable' })
}

export function clearedVisitorCookie(request: Request): string {
  return clearCookie(request, VISITOR_COOKIE, 'embeddable')
}

/** The token from the cookie, else from the agent's header. */
export function presentedToken(request: Request): string | undefined {
  return readCookie(request, VISITOR_COOKIE) || request.headers.get(VISITOR_TOKEN_HEADER) || undefined
}
