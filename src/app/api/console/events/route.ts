import { ConsoleEventsQuery } from '@/contracts/console'
import { decodeCursor } from '@/server/api/event-rows'
import { consoleHandler } from '@/server/console/console-handler'
import { listRecentEvents } from '@/server/console/list-recent-events'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** Recent events across all sites, newest first, filterable by signal. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { signal, cursor } = parseParams(queryOf(request), ConsoleEventsQuery)
  return json(await listRecentEvents({ db, signal, cursor: cursor ? decodeCursor(cursor) : undefined }))
})
