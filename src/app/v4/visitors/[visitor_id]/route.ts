import { FingerprintNoQuery, FingerprintVisitorIdParam } from '@/contracts/fingerprint-v4'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { deleteSiteVisitor } from '@/server/api/delete-site-visitor'
import { getDb } from '@/server/db/client'
import { fingerprintHandler, parseFingerprintQuery } from '@/server/fingerprint/fingerprint-handler'
import { HttpError } from '@/server/http/errors'
import { parseParams } from '@/server/http/parse-query'
import { otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/**
 * DELETE /v4/visitors/{visitor_id}: the same erasure as DELETE /api/v1/visitors/{id}, scoped to the
 * key's site. v4 answers 404 when there was nothing to delete (on this site), where /api/v1 says 204.
 */
export const DELETE = fingerprintHandler(
  'visitor',
  async (request: Request, context: { params: Promise<{ visitor_id: string }> }) => {
    const db = await getDb()
    const caller = await authenticateApiKey(db, request)
    const { visitor_id } = parseParams(await context.params, FingerprintVisitorIdParam)
    parseFingerprintQuery(request, FingerprintNoQuery)
    const { deleted } = await deleteSiteVisitor({ db, caller, visitorId: visitor_id })
    if (deleted === 0) throw new HttpError('not_found')
    return new Response(null, { status: 200 })
  },
)

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods('DELETE')
