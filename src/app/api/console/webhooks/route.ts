import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { assertSiteExists } from '@/server/sites/manage-sites'
import { createWebhook } from '@/server/webhooks/create-webhook'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/webhooks']

export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, endpoint.body)
  await assertSiteExists({ db, siteId: input.siteId })
  const created = await createWebhook({ db, ...input })
  return json(created satisfies AnswerOf<typeof endpoint>, { status: 201 })
})
