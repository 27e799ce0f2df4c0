import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { readPolicyWithAudit } from '@/server/console/read-policy-with-audit'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { updateSignupPolicy } from '@/server/signup/policy/update-policy'

export const dynamic = 'force-dynamic'

const readEndpoint = consoleEndpoints['GET /api/console/rules']
const saveEndpoint = consoleEndpoints['PUT /api/console/rules']

/** The sign-up policy and its audit trail. */
export const GET = consoleHandler(async ({ db }) =>
  json((await readPolicyWithAudit({ db })) satisfies AnswerOf<typeof readEndpoint>),
)

export const PUT = consoleHandler(async ({ db, operator, request }) => {
  const policy = await parseRequest(request, saveEndpoint.body)
  await updateSignupPolicy({ db, operator: operator.username, policy })
  return json({ policy } satisfies AnswerOf<typeof saveEndpoint>)
})
