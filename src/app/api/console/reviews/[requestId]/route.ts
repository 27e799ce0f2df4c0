import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { undoReview } from '@/server/console/review-signups'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/reviews/:requestId']

/** Undoes an analyst's verdict: the sign-up waits again, its labels as they were before it. */
export const DELETE = consoleHandler(endpoint.params, async ({ db, operator }, { requestId }) =>
  json(
    (await undoReview({ db, requestId, operator: operator.username })) satisfies AnswerOf<typeof endpoint>,
  ),
)
