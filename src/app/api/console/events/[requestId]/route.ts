import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { readEventDetail } from '@/server/console/read-event-detail'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/events/:requestId']

/** One identification in full: the event, its match evidence and the sign-up decision it served. */
export const GET = consoleHandler(endpoint.params, async ({ db }, { requestId }) =>
  json((await readEventDetail({ db, requestId })) satisfies AnswerOf<typeof endpoint>),
)
