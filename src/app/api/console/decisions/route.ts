import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { listSignupDecisions } from '@/server/console/list-signup-decisions'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/decisions']

/** The latest sign-up decisions with their reasons, filtered, a page at a time. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { cursor, ...filters } = parseParams(queryOf(request), endpoint.query)
  return json((await listSignupDecisions({ db, filters, cursor })) satisfies AnswerOf<typeof endpoint>)
})
