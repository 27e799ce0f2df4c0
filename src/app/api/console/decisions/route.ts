import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { listSignupDecisions } from '@/server/console/list-signup-decisions'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/decisions']

/** The latest sign-up decisions with their reasons. */
export const GET = consoleHandler(async ({ db }) =>
  json((await listSignupDecisions({ db })) satisfies AnswerOf<typeof endpoint>),
)
