import 'server-only'
import { IdentifyRequest } from '@/contracts/identify'
import { getDb } from '../db/client'
import { clientAddress } from '../http/client-address'
import { HttpError } from '../http/errors'
import { parseRequest } from '../http/parse-request'
import { handle, json } from '../http/respond'
import { findSite } from '../sites/find-site'
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
  const result = await identifyVisitor({
    db,
    input: { ...input, siteKey: site.publicKey },
    context: {
      ip: clientAddress(request.headers),
      userAgent: request.headers.get('user-agent'),
      cookieToken: presentedToken(request),
    },
  })
  return json(result, {
    headers: { 'Set-Cookie': visitorCookie(request, result.storedToken), 'Cache-Control': 'no-store' },
  })
})
