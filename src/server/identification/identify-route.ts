import 'server-only'
import { IdentifyRequest } from '@/contracts/identify'
import { getDb } from '../db/client'
import { getEnv } from '../env'
import { clientAddress } from '../http/client-address'
import { HttpError } from '../http/errors'
import { parseRequest } from '../http/parse-request'
import { handle, json } from '../http/respond'
import { trustsProxies } from '../http/trusted-proxies'
import { sealIdentification } from '../sealing/seal-identification'
import { findSite, type Site } from '../sites/find-site'
import { identifyVisitor } from './identify-visitor'
import { presentedToken, visitorCookie } from './visitor-cookie'

/**
 * POST /api/v1/identify, the agent's call: identify this browser and store the event. Served by
 * the Next.js route in development and by scripts/serve.mjs directly in production (see
 * src/server/http/serve-node-route.ts).
 */
export const identifyRoute = handle(async (request: Request) => {
  const input = await parseRequest(request, IdentifyRequest)
  const db = await getDb()
  const site = await findSite({ db, publicKey: input.siteKey })
  if (!site) throw new HttpError('unknown_site')
  assertOriginAllowed(request, site)
  const result = await identifyVisitor({
    db,
    input: { ...input, siteKey: site.publicKey },
    context: {
      ip: clientAddress(request.headers),
      userAgent: request.headers.get('user-agent'),
      cookieToken: presentedToken(request),
    },
  })
  // A site with a sealing key also gets the event sealed, for its back end to open (Fingerprint's format).
  const sealed = await sealIdentification({ db, site, requestId: result.requestId })
  return json(sealed ? { ...result, sealed_result: sealed } : result, {
    headers: { 'Set-Cookie': visitorCookie(request, result.storedToken), 'Cache-Control': 'no-store' },
  })
})

/**
 * A browser names the calling page's origin; it must be Tessera's own (the device page, /frame) or
 * one of the site's allowed origins, so no other page can store events under a site's key. A
 * request without Origin is not a browser's cross-origin call (a back end, a benchmark): allowed.
 */
function assertOriginAllowed(request: Request, site: Site) {
  const origin = request.headers.get('origin')
  if (origin === null || site.allowedOrigins.includes(origin)) return
  // Set by the browser itself, never by the page: same origin, even behind a proxy that rewrites Host.
  if (request.headers.get('sec-fetch-site') === 'same-origin') return
  if (URL.canParse(origin) && ownHosts(request).includes(new URL(origin).host)) return
  throw new HttpError(
    'forbidden',
    'This page’s origin is not allowed for this site key; add it to the site’s allowed origins in the console.',
  )
}

/** The host names this request reached Tessera by (Host, and X-Forwarded-Host behind trusted proxies). */
function ownHosts(request: Request): string[] {
  const hosts = [request.headers.get('host') ?? new URL(request.url).host]
  const forwarded = request.headers.get('x-forwarded-host')
  if (forwarded && trustsProxies(getEnv().TESSERA_TRUSTED_PROXIES))
    hosts.push(forwarded.split(',')[0]?.trim() ?? '')
  return hosts
}
