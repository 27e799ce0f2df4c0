import { IdentifyRequest } from '@/contracts/identify'
import { getDb } from '@/server/db/client'
import { clientAddress } from '@/server/http/client-address'
import { HttpError } from '@/server/http/errors'
import { parseRequest } from '@/server/http/parse-request'
import { handle, json } from '@/server/http/respond'
import { identifyVisitor } from '@/server/identification/identify-visitor'
import { presentedToken, visitorCookie } from '@/server/identification/visitor-cookie'
import { findSite } from '@/server/sites/find-site'

export const dynamic = 'force-dynamic'

/** The agent's call: identify this browser and store the event. */
export const POST = handle(async (request: Request) => {
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
