import 'server-only'
import { IdentifyRequest } from '@/contracts/identify'
import { getDb } from '@/server/db/client'
import { clientAddress, forwardingEvidence } from '@/server/http/client-address'
import { HttpError } from '@/server/http/errors'
import { parseRequest } from '@/server/http/parse-request'
import { cameByPublicPath } from '@/server/http/public-paths'
import { handle, json } from '@/server/http/respond'
import { requireAllowedOrigin } from '@/server/http/same-origin'
import { getAgentProofSecret, verifyAgentNonce } from '@/server/identification/agent-proof'
import { checkComponents } from '@/server/identification/check-components'
import { identifyVisitor } from '@/server/identification/identify-visitor'
import { presentedToken, visitorCookie } from '@/server/identification/visitor-cookie'
import { sealIdentification } from '@/server/sealing/seal-identification'
import { readRequestHeaders } from '@/server/signals/request-evidence'
import { findSite } from '@/server/sites/find-site'

/**
 * The agent's call: identify this browser and store the event. In production scripts/serve.mjs
 * answers it with this same handler, ahead of Next.js (src/server/http/serve-node-route.ts).
 */
export const identifyEndpoint = handle(async (request: Request) => {
  const input = await parseRequest(request, IdentifyRequest)
  // Only Tessera's own pages may leave the site key out (the default site): not an integrator's page.
  if (!input.siteKey && cameByPublicPath(request))
    throw new HttpError('invalid_request', 'Pass your site key (siteKey): this call came from your own site.')
  const db = await getDb()
  const site = await findSite({ db, publicKey: input.siteKey })
  if (!site) throw new HttpError('unknown_site')
  requireAllowedOrigin(request, site.allowedOrigins)
  // Only the agent's own signals, in their declared shapes, are matched and stored; a payload with
  // none of them has nothing to identify by.
  const { components, offShape } = checkComponents(input.components)
  if (Object.keys(components).length === 0)
    throw new HttpError('invalid_request', 'None of the components is one the Tessera agent collects.')
  const headers = readRequestHeaders(request.headers)
  const agentProof = verifyAgentNonce(input.nonce, {
    secret: await getAgentProofSecret(db),
    siteKey: site.publicKey,
    userAgent: headers.userAgent,
    now: Date.now(),
  })
  const result = await identifyVisitor({
    db,
    input: { ...input, components, siteKey: site.publicKey },
    context: {
      ip: clientAddress(request.headers),
      userAgent: headers.userAgent,
      cookieToken: presentedToken(request),
      workspace: site.workspace,
      blockedNetworks: site.denyList,
      evidence: { headers, agentProof, offShape, forwarding: forwardingEvidence(request.headers) },
    },
    // Aborted when the client hangs up (Next.js, and serve-node-route.ts): its identification is dropped.
    signal: request.signal,
  })
  // A site with a sealing key also gets the event sealed, for its back end to open (Fingerprint's format).
  const sealed = await sealIdentification({ db, site, requestId: result.requestId })
  return json(sealed ? { ...result, sealed_result: sealed } : result, {
    headers: { 'Set-Cookie': visitorCookie(request, result.storedToken), 'Cache-Control': 'no-store' },
  })
})
