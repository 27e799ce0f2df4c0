import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { createApiKey } from '@/server/api/create-api-key'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { assertSiteExists } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/keys']

/** Creates a secret API key; the answer is the only time the key is ever shown. */
export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, endpoint.body)
  await assertSiteExists({ db, siteId: input.siteId })
  const created = await createApiKey({ db, ...input })
  return json(created satisfies AnswerOf<typeof endpoint>, {
    status: 201,
    headers: { 'Cache-Control': 'no-store' },
  })
})
