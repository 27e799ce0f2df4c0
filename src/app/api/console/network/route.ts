import { LookupQuery } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { listNetworkVisitors } from '@/server/console/list-network-visitors'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** The visitors seen from an address or a CIDR range over the last 30 days. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { q } = parseParams(queryOf(request), LookupQuery)
  return json(await listNetworkVisitors({ db, query: q }))
})
