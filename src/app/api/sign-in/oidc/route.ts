import { beginOidcSignIn, OidcSignInError, oidcSettings } from '@/server/console/oidc'
import { problem } from '@/server/http/respond'
import { log } from '@/server/log'

export const dynamic = 'force-dynamic'

/**
 * "Sign in with <provider>": a redirect to the OpenID Connect provider's sign-in page; 404 when
 * none is configured. What follows comes back to ./callback.
 */
export async function GET(request: Request): Promise<Response> {
  const settings = oidcSettings()
  if (!settings) return problem('not_found', 'Single sign-on is not configured on this server.')
  try {
    const { location, cookie } = await beginOidcSignIn(request, settings)
    return new Response(null, {
      status: 302,
      headers: { Location: location, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' },
    })
  } catch (error) {
    log.warn({ err: error }, 'single sign-on could not start')
    const why = error instanceof OidcSignInError ? error.why : 'unavailable'
    return new Response(null, {
      status: 303,
      headers: { Location: `/#sso-error=${why}`, 'Cache-Control': 'no-store' },
    })
  }
}
