// A real OpenID Connect provider for the tests (panva's oidc-provider, the certified implementation),
// on 127.0.0.1: Tessera registered as a confidential client, PKCE required, and a sign-in page of
// its own (a username field; no password, no consent screen) so both a browser and fetch can drive
// it. Each account's claims are the test's to set, the role claim included.
import { generateKeyPairSync } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export const OIDC_CLIENT_ID = 'tessera-console'
export const OIDC_CLIENT_SECRET = 'tessera-test-client-secret-0123456789'

export interface TestProvider {
  issuer: string
  /** Claims per username (`sub` is the username's own subject); change them between sign-ins. */
  accounts: Map<string, Record<string, unknown>>
  stop(): Promise<void>
}

const page = (uid: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}">
<label>Username <input name="username" autocomplete="username" required></label>
<button type="submit">Continue</button>
</form></main></body></html>`

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let body = ''
  for await (const chunk of request) body += chunk
  return new URLSearchParams(body)
}

export async function startOidcProvider({
  port = 0,
  host = '127.0.0.1',
  redirectUris,
}: {
  port?: number
  /**
   * The issuer's host. `localhost` puts the provider on another site than a Tessera reached at
   * 127.0.0.1 (ports do not make sites), as a real provider is; it then listens on every loopback
   * address, IPv4 and IPv6, whichever `localhost` resolves to.
   */
  host?: '127.0.0.1' | 'localhost'
  redirectUris: string[]
}): Promise<TestProvider> {
  const accounts = new Map<string, Record<string, unknown>>()
  const server = createServer()
  await new Promise<void>((resolve) =>
    host === 'localhost' ? server.listen(port, resolve) : server.listen(port, host, resolve),
  )
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
    },
    claims: { openid: ['sub'], profile: ['preferred_username', 'tessera_role', 'groups'], email: ['email'] },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['tessera-test-provider-cookie-key'] },
    // Its own signing key, made for this run.
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
        },
      ],
    },
    async findAccount(_context, sub) {
      const claims = accounts.get(sub)
      if (!claims) return undefined
      return { accountId: sub, claims: async () => ({ ...claims, sub }) }
    },
  })
  const callback = provider.callback()
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith('/interaction/')) return void callback(request, response)
    void (async () => {
      const details = await provider.interactionDetails(request, response)
      if (request.method === 'GET') {
        response.setHeader('Content-Type', 'text/html; charset=utf-8')
        response.end(page(details.uid))
        return
      }
      const username = (await formOf(request)).get('username')?.trim() ?? ''
      if (!accounts.has(username)) {
        await provider.interactionFinished(request, response, {
          error: 'access_denied',
          error_description: 'No such test account.',
        })
        return
      }
      // Signed in, and the scopes Tessera asked for granted at once (no consent screen).
      const grant = new provider.Grant({ accountId: username, clientId: String(details.params.client_id) })
      grant.addOIDCScope(String(details.params.scope))
      const grantId = await grant.save()
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: username }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      )
    })().catch((error: unknown) => {
      response.statusCode = 500
      response.end(String(error))
    })
  })
  return {
    issuer,
    accounts,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * What a browser does between Tessera's redirect to the provider and the provider's redirect back:
 * follows the provider's redirects (its cookies kept), signs in as `username` on its page, and
 * returns the URL it is sent back to (Tessera's callback, with the code and state).
 */
export async function signInAtProvider(authorizationUrl: string, username: string): Promise<URL> {
  const jar = new Map<string, string>()
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  let url = new URL(authorizationUrl)
  const origin = url.origin
  let form: URLSearchParams | undefined
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: form?.toString(),
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const at = pair.indexOf('=')
      jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
    form = undefined
    const location = response.headers.get('location')
    if (location) {
      url = new URL(location, url)
      if (url.origin !== origin) return url
      continue
    }
    const body = await response.text()
    if (!response.ok || !url.pathname.startsWith('/interaction/'))
      throw new Error(`The provider answered ${response.status} at ${url.pathname}: ${body.slice(0, 300)}`)
    form = new URLSearchParams({ username })
  }
  throw new Error('The provider sent the browser round in circles.')
}
