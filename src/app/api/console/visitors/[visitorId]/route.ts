import { ConsoleVisitorIdParam } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { forgetVisitor } from '@/server/identification/forget-visitor'

export const dynamic = 'force-dynamic'

/** "Forget this visitor" from the console. */
export const DELETE = consoleHandler(ConsoleVisitorIdParam, async ({ db }, { visitorId }) => {
  await forgetVisitor({ db, visitorId })
  return new Response(null, { status: 204 })
})
