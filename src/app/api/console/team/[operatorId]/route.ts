import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { changeRole, removeOperator } from '@/server/console/team'
import { parseRequest } from '@/server/http/parse-request'

export const dynamic = 'force-dynamic'

const changeEndpoint = consoleEndpoints['PATCH /api/console/team/:operatorId']
const removeEndpoint = consoleEndpoints['DELETE /api/console/team/:operatorId']

/** Another role for an operator (owners). */
export const PATCH = consoleHandler(
  changeEndpoint.params,
  async ({ db, operator, request }, { operatorId }) => {
    const { role } = await parseRequest(request, changeEndpoint.body)
    await changeRole({ db, operatorId, role, by: operator })
    return new Response(null, { status: 204 })
  },
)

/** Removes an operator from the team (owners). */
export const DELETE = consoleHandler(removeEndpoint.params, async ({ db, operator }, { operatorId }) => {
  await removeOperator({ db, operatorId, by: operator })
  return new Response(null, { status: 204 })
})
