import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { readOverview } from '@/server/console/read-overview'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/overview']

export const GET = consoleHandler(async ({ db, request }) => {
  const { range, site } = parseParams(queryOf(request), endpoint.query)
  return json((await readOverview({ db, range, site })) satisfies AnswerOf<typeof endpoint>)
})
