import 'server-only'
import { getEnv } from '../env'
import { HttpError } from './errors'
import { requestHost } from './public-origin'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cross-site request forgery protection for every state-changing console, sign-in and sign-up
 * route. SameSite cookies do not stop a page on another port of the same host, so a browser's
 * request must say it comes from Tessera's own pages: `Sec-Fetch-Site: same-origin`, or an Origin
 * whose host is the Host it was sent to, or TESSERA_PUBLIC_URL (the rule of Go's
 * net/http.CrossOriginProtection). A request with neither header does not come from a browser
 * (curl, a back end), so it cannot carry a victim's cookies, and passes.
 * A body must be JSON: forms and `text/plain` are the requests a page can send without a CORS
 * preflight.
 */
export function requireSameOrigin(request: Request, publicUrl = getEnv().TESSERA_PUBLIC_URL): void {
  if (SAFE_METHODS.has(request.method)) return
  if (!fromOwnPages(request, publicUrl)) throw new HttpError('cross_origin')
  const contentType = request.headers.get('content-type')
  const hasBody = contentType !== null || Number(request.headers.get('content-length') ?? 0) > 0
  if ((request.method !== 'DELETE' || hasBody) && !/^application\/json\s*(;|$)/i.test(contentType ?? ''))
    throw new HttpError('unsupported_media_type')
}

function fromOwnPages(request: Request, publicUrl: string | undefined): boolean {
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite !== null) return fetchSite === 'same-origin'
  const origin = request.headers.get('origin')
  if (origin === null) return true
  if (publicUrl && origin === publicUrl) return true
  try {
    return new URL(origin).host === requestHost(request.headers)
  } catch {
    // "null" (sandboxed frames, some redirects) or garbage: not our pages.
    return false
  }
}
