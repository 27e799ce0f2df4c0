import { CreateWebhookRequest } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { assertSiteExists } from '@/server/sites/manage-sites'
import { createWebhook } from '@/server/webhooks/create-webhook'

export const dynamic = 'force-dynamic'

export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, CreateWebhookRequest)
  await assertSiteExists({ db, siteId: input.siteId })
  return json(await createWebhook({ db, ...input }), { status: 201 })
})
