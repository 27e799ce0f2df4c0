import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { forgetVisitor } from '@/server/identification/forget-visitor'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/visitors/:visitorId']

/** "Forget this visitor" from the console. */
export const DELETE = consoleHandler(endpoint.params, async ({ db }, { visitorId }) => {
  await forgetVisitor({ db, visitorId })
  return new Response(null, { status: 204 })
})
