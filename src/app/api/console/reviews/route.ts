import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { listReviewQueue, reviewSignup } from '@/server/console/review-signups'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const queueEndpoint = consoleEndpoints['GET /api/console/reviews']
const reviewEndpoint = consoleEndpoints['POST /api/console/reviews']

/** The review queue: challenged and denied sign-ups waiting for an analyst. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { site } = parseParams(queryOf(request), queueEndpoint.query)
  return json((await listReviewQueue({ db, site })) satisfies AnswerOf<typeof queueEndpoint>)
})

/** An analyst's verdict on one of them. */
export const POST = consoleHandler(async ({ db, operator, request }) => {
  const { requestId, verdict } = await parseRequest(request, reviewEndpoint.body)
  const reviewed = await reviewSignup({ db, requestId, verdict, operator: operator.username })
  return json(reviewed satisfies AnswerOf<typeof reviewEndpoint>)
})
