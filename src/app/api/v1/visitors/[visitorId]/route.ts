import { VisitorHistoryQuery, VisitorIdParam } from '@/contracts/server-api'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { assertVisitorOnSite, readVisitorHistory } from '@/server/api/read-visitor-history'
import { getDb } from '@/server/db/client'
import { HttpError } from '@/server/http/errors'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { handle, json } from '@/server/http/respond'
import { forgetVisitor } from '@/server/identification/forget-visitor'

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

/** DELETE /api/v1/visitors/{visitorId}: deletes every stored trace of the visitor. Idempotent. */
export const DELETE = handle(async (request: Request, context: Context) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { visitorId } = parseParams(await context.params, VisitorIdParam)
  try {
    await assertVisitorOnSite({ db, caller, visitorId })
  } catch (error) {
    // Already gone (or never existed): deleting again succeeds.
    if (error instanceof HttpError && error.code === 'not_found') return new Response(null, { status: 204 })
    throw error
  }
  await forgetVisitor({ db, visitorId })
  return new Response(null, { status: 204 })
})
