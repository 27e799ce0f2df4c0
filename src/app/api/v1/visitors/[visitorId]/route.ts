import { VisitorHistoryQuery, VisitorIdParam } from '@/contracts/server-api'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { deleteSiteVisitor } from '@/server/api/delete-site-visitor'
import { readVisitorHistory } from '@/server/api/read-visitor-history'
import { getDb } from '@/server/db/client'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { handle, json, otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

type Context = { params: Promise<{ visitorId: string }> }

/** GET /api/v1/visitors/{visitorId}?limit&before: visit history on the key's site, newest first. */
export const GET = handle(async (request: Request, context: Context) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { visitorId } = parseParams(await context.params, VisitorIdParam)
  const { limit, before } = parseParams(queryOf(request), VisitorHistoryQuery)
  return json(await readVisitorHistory({ db, caller, visitorId, limit, before }))
})

/**
 * DELETE /api/v1/visitors/{visitorId}: deletes the visitor's data on the key's site (and the visitor
 * itself once no other site has seen it). 204 whether or not there was any: idempotent, and it
 * tells nothing of other sites' visitors.
 */
export const DELETE = handle(async (request: Request, context: Context) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { visitorId } = parseParams(await context.params, VisitorIdParam)
  await deleteSiteVisitor({ db, caller, visitorId })
  return new Response(null, { status: 204 })
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, OPTIONS } = otherMethods('GET', 'DELETE')
