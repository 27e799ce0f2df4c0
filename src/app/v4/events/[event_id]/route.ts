import {
  FingerprintEventIdParam,
  FingerprintEventUpdate,
  FingerprintGetEventQuery,
  FingerprintNoQuery,
} from '@/contracts/fingerprint-v4'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { updateEvent } from '@/server/api/update-event'
import { getDb } from '@/server/db/client'
import {
  fingerprintError,
  fingerprintHandler,
  parseFingerprintQuery,
} from '@/server/fingerprint/fingerprint-handler'
import { readFingerprintEvent } from '@/server/fingerprint/read-fingerprint-events'
import { parseParams } from '@/server/http/parse-query'
import { parseRequest } from '@/server/http/parse-request'
import { json, otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

type Context = { params: Promise<{ event_id: string }> }

/** GET /v4/events/{event_id}: one event in Fingerprint Server API v4's shape. */
export const GET = fingerprintHandler('event', async (request: Request, context: Context) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { event_id } = parseParams(await context.params, FingerprintEventIdParam)
  const { ruleset_id } = parseFingerprintQuery(request, FingerprintGetEventQuery)
  if (ruleset_id !== undefined)
    return fingerprintError(404, 'ruleset_not_found', 'Tessera has no rulesets; leave ruleset_id out.')
  return json(await readFingerprintEvent({ db, caller, eventId: event_id }))
})

/** PATCH /v4/events/{event_id}: sets the event's linked_id, tags (replaced whole) or suspect flag. */
export const PATCH = fingerprintHandler('event', async (request: Request, context: Context) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { event_id } = parseParams(await context.params, FingerprintEventIdParam)
  parseFingerprintQuery(request, FingerprintNoQuery)
  const update = await parseRequest(request, FingerprintEventUpdate)
  await updateEvent({
    db,
    caller,
    requestId: event_id,
    update: { linkedId: update.linked_id, tag: update.tags, suspect: update.suspect },
  })
  return new Response(null, { status: 200 })
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, DELETE, OPTIONS } = otherMethods('GET', 'PATCH')
