import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { labelAccount, unlabelAccount } from '@/server/console/label-subjects'
import { parseRequest } from '@/server/http/parse-request'

export const dynamic = 'force-dynamic'

const setEndpoint = consoleEndpoints['PUT /api/console/accounts/:accountId/label']
const removeEndpoint = consoleEndpoints['DELETE /api/console/accounts/:accountId/label']

/** Labels the account fraud or good. */
export const PUT = consoleHandler(setEndpoint.params, async ({ db, operator, request }, { accountId }) => {
  const { label } = await parseRequest(request, setEndpoint.body)
  await labelAccount({ db, accountId, label, operator: operator.username })
  return new Response(null, { status: 204 })
})

export const DELETE = consoleHandler(removeEndpoint.params, async ({ db }, { accountId }) => {
  await unlabelAccount({ db, accountId })
  return new Response(null, { status: 204 })
})
