import { clearedFlowCookie, finishOidcSignIn, OidcSignInError, oidcSettings } from '@/server/console/oidc'
import { sessionCookie } from '@/server/console/sessions'
import { getDb } from '@/server/db/client'
import { problem } from '@/server/http/respond'
import { log } from '@/server/log'

export const dynamic = 'force-dynamic'

/**
 * Where the OpenID Connect provider sends the browser back. Signed in, the answer is a page that
 * moves on to the console itself: a redirect chain that began on the provider's site counts as
 * cross-site, and the browser would not send the SameSite=Strict session cookie to the console
 * at its end. Refused, the sign-in form says why (`/#sso-error=<why>`).
 */
export async function GET(request: Request): Promise<Response> {
  const settings = oidcSettings()
  if (!settings) return problem('not_found', 'Single sign-on is not configured on this server.')
  const headers = new Headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
  // The sign-in's state is used once, whatever happens next.
  headers.append('Set-Cookie', clearedFlowCookie(request))
  try {
    const session = await finishOidcSignIn({ db: await getDb(), request, settings })
    headers.append('Set-Cookie', sessionCookie(request, session.token, session.expiresAt))
    headers.set('Content-Type', 'text/html; charset=utf-8')
    headers.set('Content-Security-Policy', "default-src 'none'; base-uri 'none'; frame-ancestors 'none'")
    return new Response(
      '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>Signed in</title><p>Signed in. <a href="/">Open the console</a>.</p>\n',
      { status: 200, headers },
    )
  } catch (error) {
    const why = error instanceof OidcSignInError ? error.why : 'unavailable'
    log.warn({ err: error, why }, 'a single sign-on was refused')
    headers.set('Location', `/#sso-error=${why}`)
    return new Response(null, { status: 303, headers })
  }
}
