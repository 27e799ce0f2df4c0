import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { readPolicyWithAudit } from '@/server/console/read-policy-with-audit'
import { HttpError } from '@/server/http/errors'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { inheritDefaultPolicy, updateSignupPolicy } from '@/server/signup/policy/update-policy'

export const dynamic = 'force-dynamic'

const readEndpoint = consoleEndpoints['GET /api/console/rules']
const saveEndpoint = consoleEndpoints['PUT /api/console/rules']
const inheritEndpoint = consoleEndpoints['DELETE /api/console/rules']

/** The sign-up policy (the default, or a site's) and its audit trail. */
export const GET = consoleHandler(async ({ db, request }) => {
  const { site } = parseParams(queryOf(request), readEndpoint.query)
  return json((await readPolicyWithAudit({ db, site })) satisfies AnswerOf<typeof readEndpoint>)
})

/** Saves the default rules, or (?site=) a site's own. */
export const PUT = consoleHandler(async ({ db, operator, request }) => {
  const { site } = parseParams(queryOf(request), saveEndpoint.query)
  const policy = await parseRequest(request, saveEndpoint.body)
  await updateSignupPolicy({ db, operator: operator.username, policy, site })
  return json({ policy } satisfies AnswerOf<typeof saveEndpoint>)
})

/** A site (?site=) goes back to the default rules. */
export const DELETE = consoleHandler(async ({ db, operator, request }) => {
  const { site } = parseParams(queryOf(request), inheritEndpoint.query)
  if (!site)
    throw new HttpError('invalid_request', 'site: name the site that goes back to the default rules.')
  await inheritDefaultPolicy({ db, operator: operator.username, site })
  return new Response(null, { status: 204 })
})
