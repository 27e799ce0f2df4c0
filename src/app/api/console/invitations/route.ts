import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { inviteOperator } from '@/server/console/team'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/invitations']

/** An invitation link for a role, shown once (owners). */
export const POST = consoleHandler(async ({ db, operator, request }) => {
  const { role } = await parseRequest(request, endpoint.body)
  const invitation = await inviteOperator({ db, role, by: operator })
  return json(invitation satisfies AnswerOf<typeof endpoint>, { status: 201 })
})
