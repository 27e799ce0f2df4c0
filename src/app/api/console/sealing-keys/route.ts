import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { createSealingKey } from '@/server/sealing/create-sealing-key'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/sealing-keys']

/** Creates a sealing key for a site; the answer is the only time the key is ever shown. */
export const POST = consoleHandler(async ({ db, operator, request }) => {
  const { siteId } = await parseRequest(request, endpoint.body)
  const created = await createSealingKey({ db, siteId, operator: operator.username })
  return json(created satisfies AnswerOf<typeof endpoint>, { status: 201 })
})
