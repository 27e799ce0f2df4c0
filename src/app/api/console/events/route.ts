import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { decodeCursor } from '@/server/api/event-rows'
import { consoleHandler } from '@/server/console/console-handler'
import { listRecentEvents } from '@/server/console/list-recent-events'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/events']

/** Recent events across all sites (or one), newest first, filtered as the console's filters say. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { cursor, ...filters } = parseParams(queryOf(request), endpoint.query)
  const page = await listRecentEvents({ db, filters, cursor: cursor ? decodeCursor(cursor) : undefined })
  return json(page satisfies AnswerOf<typeof endpoint>)
})
