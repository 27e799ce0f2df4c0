import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { revokeInvitation } from '@/server/console/team'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/invitations/:invitationId']

/** Withdraws an open invitation (owners). */
export const DELETE = consoleHandler(endpoint.params, async ({ db, operator }, { invitationId }) => {
  await revokeInvitation({ db, invitationId, by: operator })
  return new Response(null, { status: 204 })
})
