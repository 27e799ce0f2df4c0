import { OverviewQuery } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { readOverview } from '@/server/console/read-overview'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const GET = consoleHandler(async ({ db, request }) => {
  const { range } = parseParams(queryOf(request), OverviewQuery)
  return json(await readOverview({ db, range }))
})
