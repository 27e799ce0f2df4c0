import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { createSite } from '@/server/sites/create-site'
import { listSites } from '@/server/sites/list-sites'

export const dynamic = 'force-dynamic'

const listEndpoint = consoleEndpoints['GET /api/console/sites']
const createEndpoint = consoleEndpoints['POST /api/console/sites']

/** Sites with their keys and webhooks; and whether sealing keys are encrypted at rest (TESSERA_ENCRYPTION_KEY). */
export const GET = consoleHandler(async ({ db }) =>
  json((await listSites({ db })) satisfies AnswerOf<typeof listEndpoint>),
)

export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, createEndpoint.body)
  const created = await createSite({ db, ...input })
  return json(created satisfies AnswerOf<typeof createEndpoint>, { status: 201 })
})
