import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { setSiteWorkspace } from '@/server/sites/set-site-workspace'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['PUT /api/console/sites/:siteId/workspace']

export const PUT = consoleHandler(endpoint.params, async ({ db, request, operator }, { siteId }) => {
  const { shareWith } = await parseRequest(request, endpoint.body)
  await setSiteWorkspace({ db, siteId, shareWith, operator: operator.username })
  return json({ updated: true } satisfies AnswerOf<typeof endpoint>)
})
