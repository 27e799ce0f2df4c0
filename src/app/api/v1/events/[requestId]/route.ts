import { RequestIdParam } from '@/contracts/server-api'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { readEvent } from '@/server/api/read-event'
import { getDb } from '@/server/db/client'
import { parseParams } from '@/server/http/parse-query'
import { handle, json, otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** GET /api/v1/events/{requestId}: one identification event, for the integrator's back end. */
export const GET = handle(async (request: Request, context: { params: Promise<{ requestId: string }> }) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { requestId } = parseParams(await context.params, RequestIdParam)
  return json(await readEvent({ db, caller, requestId }))
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
