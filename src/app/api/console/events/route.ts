import { z } from 'zod'
import { decodeCursor } from '@/server/api/event-rows'
import { consoleHandler } from '@/server/console/console-handler'
import { listRecentEvents } from '@/server/console/list-recent-events'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const Query = z.object({
  signal: z.enum(['all', 'bot', 'new', 'returning']).default('all'),
  cursor: z.string().max(200).optional(),
})

/** Recent events across all sites, newest first, filterable by signal. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { signal, cursor } = parseParams(queryOf(request), Query)
  return json(await listRecentEvents({ db, signal, cursor: cursor ? decodeCursor(cursor) : undefined }))
})
