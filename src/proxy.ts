import { type NextRequest, NextResponse } from 'next/server'
import { normaliseOrigin } from './contracts/origin'

/**
 * Every screen gets a Content-Security-Policy with a fresh script nonce (Next.js reads it from
 * the request's CSP header and puts it on its own scripts), and HSTS over HTTPS. Only /frame may
 * be framed, and only by the origins allowed for its site key (frame-ancestors); a page the browser
 * names as another origin's gets, in its place, a refusal its loader can read (refusedParent).
 */
export async function proxy(request: NextRequest) {
  const { contentSecurityPolicy, STRICT_TRANSPORT_SECURITY } = await import(
    './server/http/content-security-policy'
  )
  const { isHttps } = await import('./server/http/is-https')
  const { getEnv } = await import('./server/env')
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')
  const development = getEnv().NODE_ENV === 'development'
  const allowed = request.nextUrl.pathname === '/frame' ? await allowedOrigins(request) : undefined
  const refused = allowed && refusedParent(request, allowed.origins)
  if (refused) {
    // The browser would block the collector (frame-ancestors) and the loader would wait for its
    // time-out: this page tells it at once why, and nothing else.
    const policy = contentSecurityPolicy({ nonce, frameAncestors: refused, development })
    const refusal = refusalPage({ nonce, parent: refused, reason: allowed.known ? 'origin' : 'site', policy })
    if (isHttps(request)) refusal.headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY)
    return refusal
  }
  const policy = contentSecurityPolicy({
    nonce,
    frameAncestors: allowed ? ["'self'", ...allowed.origins].join(' ') : "'none'",
    development,
  })
  const headers = new Headers(request.headers)
  headers.set('content-security-policy', policy)
  const response = NextResponse.next({ request: { headers } })
  response.headers.set('Content-Security-Policy', policy)
  if (isHttps(request)) response.headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY)
  return response
}

/** A 403 page that only posts the refusal to its parent, which it alone may frame (`policy`). */
function refusalPage({
  nonce,
  parent,
  reason,
  policy,
}: {
  nonce: string
  parent: string
  reason: 'origin' | 'site'
  policy: string
}): NextResponse {
  const script = `parent.postMessage(${JSON.stringify({ tessera: 'refused', reason })},${JSON.stringify(parent)})`
  return new NextResponse(
    `<!doctype html><meta charset="utf-8"><title>Tessera collector</title><script nonce="${nonce}">${script.replace(/</g, '\\u003c')}</script>`,
    {
      status: 403,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': policy,
        'Cache-Control': 'no-store',
      },
    },
  )
}

/** The origins allowed for the site key in the query (none for an unknown key). */
async function allowedOrigins(request: NextRequest): Promise<{ known: boolean; origins: string[] }> {
  const { getDb } = await import('./server/db/client')
  const { findSite } = await import('./server/sites/find-site')
  const siteKey = request.nextUrl.searchParams.get('siteKey')
  const site = siteKey ? await findSite({ db: await getDb(), publicKey: siteKey }) : undefined
  return { known: site !== undefined, origins: site?.allowedOrigins ?? [] }
}

/**
 * The origin of the page framing /frame, when the browser says it is another origin's (Fetch
 * metadata) and its Referer names one the site does not allow: frame-ancestors would block the
 * collector anyway (the loader's frame asks for the page's origin as its Referer, whatever the page's
 * own policy). Without those headers (an older browser; plain HTTP off localhost, where browsers send
 * no fetch metadata; a Referer stripped by a setting) nothing is refused here, and frame-ancestors
 * alone decides.
 */
function refusedParent(request: NextRequest, allowed: string[]): string | undefined {
  const site = request.headers.get('sec-fetch-site')
  if (request.headers.get('sec-fetch-dest') !== 'iframe' || (site !== 'cross-site' && site !== 'same-site'))
    return undefined
  const parent = normaliseOrigin(originOf(request.headers.get('referer')))
  return parent && PLAIN_ORIGIN.test(parent) && !allowed.includes(parent) ? parent : undefined
}

/**
 * An origin that is a valid CSP source as it stands, as the refusal's frame-ancestors needs: URL
 * parsing lets `,` `;` `*` and quotes into a host, which would change the policy. Any other
 * (those, an IPv6 address) is not refused here: frame-ancestors keeps it out, at the time-out.
 */
const PLAIN_ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d+)?$/

function originOf(url: string | null): string {
  try {
    return url ? new URL(url).origin : ''
  } catch {
    return ''
  }
}

export const config = {
  // Screens only: not the API, /api or /v4 (its bodies must stream to the handlers untouched), not
  // the loader or static files. Prefetches too (Next's guide skips them): a prefetched document is
  // kept and shown by the browser, so it needs its CSP and frame-ancestors like any other.
  matcher: ['/((?!api/|v4/|_next/static|_next/image|agent\\.js|icon\\.svg|favicon\\.ico).*)'],
}
