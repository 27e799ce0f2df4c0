import { parseIpFilter } from '@/contracts/ip-filter'
import { EventSearchQuery } from '@/contracts/server-api'
import { authenticateApiKey } from '@/server/api/authenticate-api-key'
import { searchEvents } from '@/server/api/search-events'
import { getDb } from '@/server/db/client'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { handle, json, otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** GET /api/v1/events?visitorId&linkedId&ip&bot&since&until&limit&cursor: search, newest first (ip: an address or a CIDR range). */
export const GET = handle(async (request: Request) => {
  const db = await getDb()
  const caller = await authenticateApiKey(db, request)
  const { bot, ip, ...query } = parseParams(queryOf(request), EventSearchQuery)
  // An address or a CIDR range (the contract refused anything else).
  const address = ip ? parseIpFilter(ip) : null
  return json(
    await searchEvents({ db, caller, filter: { ...query, ...address, bot: bot ? [bot] : undefined } }),
  )
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
