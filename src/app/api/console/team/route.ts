import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { readTeam } from '@/server/console/team'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/team']

/** The team and its open invitations (owners). */
export const GET = consoleHandler(async ({ db, operator }) =>
  json((await readTeam({ db, you: operator })) satisfies AnswerOf<typeof endpoint>),
)
