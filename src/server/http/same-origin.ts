import 'server-only'
import { getEnv } from '../env'
import { configuredHosts, namesOwnHost } from './allowed-hosts'
import { HttpError } from './errors'
import { requestHost } from './public-origin'
import { cameByPublicPath } from './public-paths'
import { trustsProxies } from './trusted-proxies'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Whether a browser's request comes from one of Tessera's own pages: `Sec-Fetch-Site:
 * same-origin` (set by the browser, never by the page, and right even behind a proxy that rewrites
 * Host), or an Origin that is TESSERA_PUBLIC_URL, the Host it was sent to, or the X-Forwarded-Host
 * a trusted proxy passed on. The one rule behind CSRF protection and identify's origin check.
 * Once Tessera's names are configured (allowed-hosts.ts), a request sent to any other name is not
 * from its pages, whatever it says: a rebound name's page is same-origin with itself.
 */
export function isFromOwnPages(
  request: Request,
  publicUrl = getEnv().TESSERA_PUBLIC_URL,
  trustedProxies = getEnv().TESSERA_TRUSTED_PROXIES,
  hosts = configuredHosts(),
): boolean {
  // Without a Host header (a Request built in-process), the URL's own host is where it was sent.
  const sentTo = request.headers.has('host') ? requestHost(request.headers) : new URL(request.url).host
  const forwarded = trustsProxies(trustedProxies)
    ? request.headers.get('x-forwarded-host')?.split(',')[0]?.trim().toLowerCase()
    : undefined
  if (!namesOwnHost({ host: sentTo, forwardedHost: forwarded }, hosts)) return false
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite !== null) return fetchSite === 'same-origin'
  const origin = request.headers.get('origin')
  if (origin === null) return false
  if (publicUrl && origin === publicUrl) return true
  if (!URL.canParse(origin)) return false // "null" (sandboxed frames, some redirects) or garbage
  const { host } = new URL(origin)
  if (host === sentTo) return true
  // A browser cannot send X-Forwarded-Host across origins without a CORS preflight Tessera refuses.
  return forwarded !== undefined && forwarded === host
}

/** A request that names no origin at all does not come from a browser's page (curl, a back end). */
function fromNoPage(request: Request): boolean {
  return request.headers.get('sec-fetch-site') === null && request.headers.get('origin') === null
}

/**
 * Cross-site request forgery protection for every state-changing console, sign-in and sign-up
 * route. SameSite cookies do not stop a page on another port of the same host, so a browser's
 * request must come from Tessera's own pages (isFromOwnPages; the rule of Go's
 * net/http.CrossOriginProtection). A request with neither Sec-Fetch-Site nor Origin does not come
 * from a browser, so it cannot carry a victim's cookies, and passes.
 * A body must be JSON: forms and `text/plain` are the requests a page can send without a CORS
 * preflight.
 */
export function requireSameOrigin(request: Request, publicUrl = getEnv().TESSERA_PUBLIC_URL): void {
  if (SAFE_METHODS.has(request.method)) return
  if (!fromNoPage(request) && !isFromOwnPages(request, publicUrl)) throw new HttpError('cross_origin')
  const contentType = request.headers.get('content-type')
  const hasBody = contentType !== null || Number(request.headers.get('content-length') ?? 0) > 0
  if ((request.method !== 'DELETE' || hasBody) && !/^application\/json\s*(;|$)/i.test(contentType ?? ''))
    throw new HttpError('unsupported_media_type')
}

/**
 * For a GET a browser sends with its cookies that spends something (a rate budget) or reads on the
 * cookie's behalf, where requireSameOrigin lets every GET through: opened from Tessera's own pages (`Sec-Fetch-Site:
 * same-origin`) or typed, bookmarked (`none`), never navigated to by another site's page nor by a
 * page on another port of this host (`cross-site`, `same-site`: the visitor's cookie, SameSite=None over
 * HTTPS, and an operator's SameSite=Strict session from a same-site page, go along).
 * A request without the header (curl, an older browser) passes, as for requireSameOrigin.
 */
export function requireOwnNavigation(request: Request, message?: string): void {
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite === null || fetchSite === 'same-origin' || fetchSite === 'none') return
  throw new HttpError('cross_origin', message)
}

/**
 * The identify call names the calling page's origin; it must be Tessera's own (the device page,
 * /frame) or one of the site's allowed origins, so no other page can store events under a site's
 * key. A request without Origin is not a browser's cross-origin call (a back end, a benchmark).
 * A call that came through an integrator's server (a public path) is same-origin for the browser,
 * but its page is the integrator's: only the site's allowed origins count then.
 */
export function requireAllowedOrigin(request: Request, allowedOrigins: readonly string[]): void {
  const origin = request.headers.get('origin')
  if (origin === null || allowedOrigins.includes(origin)) return
  if (!cameByPublicPath(request) && isFromOwnPages(request)) return
  throw new HttpError(
    'forbidden',
    'This page’s origin is not allowed for this site key; add it to the site’s allowed origins in the console.',
  )
}
