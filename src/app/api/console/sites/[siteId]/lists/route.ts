import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { setSiteLists } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['PUT /api/console/sites/:siteId/lists']

export const PUT = consoleHandler(endpoint.params, async ({ db, request }, { siteId }) => {
  const { deny, allow } = await parseRequest(request, endpoint.body)
  await setSiteLists({ db, siteId, deny, allow })
  return json({ updated: true } satisfies AnswerOf<typeof endpoint>)
})
