import { CreateApiKeyRequest } from '@/contracts/console'
import { createApiKey } from '@/server/api/create-api-key'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { assertSiteExists } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

/** Creates a secret API key; the answer is the only time the key is ever shown. */
export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, CreateApiKeyRequest)
  await assertSiteExists({ db, siteId: input.siteId })
  return json(await createApiKey({ db, ...input }), { status: 201, headers: { 'Cache-Control': 'no-store' } })
})
