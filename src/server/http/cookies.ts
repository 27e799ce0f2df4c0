import 'server-only'
import { isHttps } from './is-https'

/**
 * A console cookie's name for this request: over HTTPS with the __Host- prefix, which a browser
 * keeps only when this very host set it (Secure, Path=/, no Domain), so a sibling subdomain cannot
 * plant one of its own (cookie tossing); over plain HTTP (a laptop, a test), the plain name. Read
 * and written under this one name, never the other.
 */
export function hostOnlyName(request: { headers: Headers; url?: string }, name: string): string {
  return isHttps(request) ? `__Host-${name}` : name
}

/** The value of the request's cookie `name`, or undefined when it has none (or an empty one). */
export function readCookie(request: { headers: Headers }, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const pair = part.trim()
    if (pair.startsWith(`${name}=`)) return pair.slice(name.length + 1) || undefined
  }
  return undefined
}

export interface CookieLife {
  /** Seconds the cookie lives; 0 deletes it. */
  maxAge?: number
  /** When it expires, for a cookie that ends with something else (a session). */
  expires?: Date
  /**
   * `strict`: sent only from Tessera's own pages (the console). `embeddable`: also inside another
   * site's iframe over HTTPS (SameSite=None; Secure; Partitioned — CHIPS); over plain HTTP browsers
   * refuse SameSite=None without Secure, so it is Lax there. `navigation`: also on a top-level
   * navigation from another site (SameSite=Lax), as a sign-in provider's redirect back is.
   */
  reach: 'strict' | 'embeddable' | 'navigation'
}

/**
 * The one Set-Cookie builder: every Tessera cookie is HttpOnly on the whole site, Secure whenever
 * the browser reached Tessera over HTTPS (is-https.ts).
 */
export function buildCookie(request: Request, name: string, value: string, life: CookieLife): string {
  const https = isHttps(request)
  const parts = [`${name}=${value}`, 'Path=/']
  if (life.maxAge !== undefined) parts.push(`Max-Age=${life.maxAge}`)
  parts.push('HttpOnly')
  if (life.reach === 'strict') parts.push('SameSite=Strict')
  else if (life.reach === 'navigation') parts.push('SameSite=Lax')
  else parts.push(https ? 'SameSite=None' : 'SameSite=Lax')
  if (life.expires) parts.push(`Expires=${life.expires.toUTCString()}`)
  if (https) parts.push('Secure')
  if (https && life.reach === 'embeddable') parts.push('Partitioned')
  return parts.join('; ')
}

/** The Set-Cookie that deletes a cookie built with the same reach. */
export function clearCookie(request: Request, name: string, reach: CookieLife['reach']): string {
  return buildCookie(request, name, '', { maxAge: 0, reach })
}
