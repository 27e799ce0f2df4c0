import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { findVisitorId, readVisitorPanel } from '@/server/console/look-up-visitor'
import { HttpError } from '@/server/http/errors'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/lookup']

/** Look-up by visitor ID, request ID, linked ID (account) or IP address. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { q, site } = parseParams(queryOf(request), endpoint.query)
  const visitorId = await findVisitorId({ db, query: q })
  const panel = visitorId ? await readVisitorPanel({ db, visitorId, site }) : undefined
  if (!panel) throw new HttpError('not_found', `No visitor matches "${q}".`)
  return json(panel satisfies AnswerOf<typeof endpoint>)
})
