import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { labelVisitor, unlabelVisitor } from '@/server/console/label-subjects'
import { parseRequest } from '@/server/http/parse-request'

export const dynamic = 'force-dynamic'

const setEndpoint = consoleEndpoints['PUT /api/console/visitors/:visitorId/label']
const removeEndpoint = consoleEndpoints['DELETE /api/console/visitors/:visitorId/label']

/** Labels the visitor fraud or good. */
export const PUT = consoleHandler(setEndpoint.params, async ({ db, operator, request }, { visitorId }) => {
  const { label } = await parseRequest(request, setEndpoint.body)
  await labelVisitor({ db, visitorId, label, operator: operator.username })
  return new Response(null, { status: 204 })
})

export const DELETE = consoleHandler(removeEndpoint.params, async ({ db }, { visitorId }) => {
  await unlabelVisitor({ db, visitorId })
  return new Response(null, { status: 204 })
})
