import { type NextRequest, NextResponse } from 'next/server'

/**
 * Every screen gets a Content-Security-Policy with a fresh script nonce (Next.js reads it from
 * the request's CSP header and puts it on its own scripts), and HSTS over HTTPS. Only /frame may
 * be framed, and only by the origins allowed for its site key (frame-ancestors).
 */
export async function proxy(request: NextRequest) {
  const { contentSecurityPolicy, STRICT_TRANSPORT_SECURITY } = await import(
    './server/http/content-security-policy'
  )
  const { isHttps } = await import('./server/http/is-https')
  const { getEnv } = await import('./server/env')
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')
  const policy = contentSecurityPolicy({
    nonce,
    frameAncestors: request.nextUrl.pathname === '/frame' ? await frameAncestors(request) : "'none'",
    development: getEnv().NODE_ENV === 'development',
  })
  const headers = new Headers(request.headers)
  headers.set('content-security-policy', policy)
  const response = NextResponse.next({ request: { headers } })
  response.headers.set('Content-Security-Policy', policy)
  if (isHttps(request)) response.headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY)
  return response
}

/** 'self' and the origins allowed for the site key in the query. */
async function frameAncestors(request: NextRequest): Promise<string> {
  const { getDb } = await import('./server/db/client')
  const { findSite } = await import('./server/sites/find-site')
  const siteKey = request.nextUrl.searchParams.get('siteKey')
  const site = siteKey ? await findSite({ db: await getDb(), publicKey: siteKey }) : undefined
  return ["'self'", ...(site?.allowedOrigins ?? [])].join(' ')
}

export const config = {
  // Screens only: not the API, /api or /v4 (its bodies must stream to the handlers untouched), not
  // the loader or static files. Prefetches too (Next's guide skips them): a prefetched document is
  // kept and shown by the browser, so it needs its CSP and frame-ancestors like any other.
  matcher: ['/((?!api/|v4/|_next/static|_next/image|agent\\.js|icon\\.svg|favicon\\.ico).*)'],
}
