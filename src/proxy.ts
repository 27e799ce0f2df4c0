import { type NextRequest, NextResponse } from 'next/server'

/**
 * /frame may be framed only by the origins allowed for its site key (CSP frame-ancestors);
 * next.config.ts makes every other screen refuse framing outright.
 */
export async function proxy(request: NextRequest) {
  const { getDb } = await import('./server/db/client')
  const { findSite } = await import('./server/sites/find-site')
  const siteKey = request.nextUrl.searchParams.get('siteKey')
  const site = siteKey ? await findSite({ db: await getDb(), publicKey: siteKey }) : undefined
  const ancestors = ["'self'", ...(site?.allowedOrigins ?? [])].join(' ')
  const response = NextResponse.next()
  response.headers.set('Content-Security-Policy', `frame-ancestors ${ancestors}`)
  return response
}

export const config = { matcher: '/frame' }
