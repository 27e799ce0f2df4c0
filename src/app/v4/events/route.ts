import { FingerprintSearchQuery } from '@/contracts/fingerprint-v4'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { getDb } from '@/server/db/client'
import { fingerprintHandler, parseFingerprintQuery } from '@/server/fingerprint/fingerprint-handler'
import { searchFingerprintEvents } from '@/server/fingerprint/read-fingerprint-events'
import { assertSupportedFilters, toEventFilter } from '@/server/fingerprint/to-event-filter'
import { json, otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** GET /v4/events: search the site's events with v4's filter names, newest first (or `reverse`). */
export const GET = fingerprintHandler('event', async (request: Request) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  assertSupportedFilters(request)
  const query = parseFingerprintQuery(request, FingerprintSearchQuery)
  return json(await searchFingerprintEvents({ db, caller, filter: toEventFilter(query) }))
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
