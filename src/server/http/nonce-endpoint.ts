import 'server-only'
import { NonceQuery } from '@/contracts/identify'
import { getDb } from '@/server/db/client'
import { HttpError } from '@/server/http/errors'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { cameByPublicPath } from '@/server/http/public-paths'
import { handle, json } from '@/server/http/respond'
import { requireAllowedOrigin } from '@/server/http/same-origin'
import { getAgentProofSecret, issueAgentNonce } from '@/server/identification/agent-proof'
import { headerText } from '@/server/signals/request-evidence'
import { findSite } from '@/server/sites/find-site'

/**
 * A nonce for the agent's next identify call, its proof that it ran (agent-proof.ts). Asked for at
 * each identification rather than baked into /agent.js, which browsers and CDNs cache. Never
 * cached; readable only by the site's pages (no CORS headers: the loader on another origin asks
 * through /frame). In production scripts/serve.mjs answers it ahead of Next.js.
 */
export const nonceEndpoint = handle(async (request: Request) => {
  const { siteKey } = parseParams(queryOf(request), NonceQuery)
  if (!siteKey && cameByPublicPath(request))
    throw new HttpError('invalid_request', 'Pass your site key (siteKey): this call came from your own site.')
  const db = await getDb()
  const site = await findSite({ db, publicKey: siteKey })
  if (!site) throw new HttpError('unknown_site')
  requireAllowedOrigin(request, site.allowedOrigins)
  const issued = issueAgentNonce({
    secret: await getAgentProofSecret(db),
    siteKey: site.publicKey,
    // Read as identify reads it (request-evidence.ts), so the proof binds the same text.
    userAgent: headerText(request.headers, 'user-agent'),
    now: Date.now(),
  })
  return json(issued, { headers: { 'Cache-Control': 'no-store' } })
})
