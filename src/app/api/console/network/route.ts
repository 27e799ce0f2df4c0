import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { listNetworkVisitors } from '@/server/console/list-network-visitors'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/network']

/** The visitors seen from an address or a CIDR range over the last 30 days. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { q } = parseParams(queryOf(request), endpoint.query)
  return json((await listNetworkVisitors({ db, query: q })) satisfies AnswerOf<typeof endpoint>)
})
