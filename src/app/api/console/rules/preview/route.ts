import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { previewPolicy } from '@/server/signup/policy/preview-policy'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/rules/preview']

/** What the rules as edited would have done to the last week's sign-ups; nothing is saved. */
export const POST = consoleHandler(async ({ db, request }) => {
  const { site } = parseParams(queryOf(request), endpoint.query)
  const candidate = await parseRequest(request, endpoint.body)
  return json((await previewPolicy({ db, candidate, site })) satisfies AnswerOf<typeof endpoint>)
})
