import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { updateSite } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['PATCH /api/console/sites/:siteId']

export const PATCH = consoleHandler(endpoint.params, async ({ db, request }, { siteId }) => {
  const input = await parseRequest(request, endpoint.body)
  await updateSite({ db, siteId, ...input })
  return json({ updated: true } satisfies AnswerOf<typeof endpoint>)
})
