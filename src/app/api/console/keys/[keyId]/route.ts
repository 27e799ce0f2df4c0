import { consoleEndpoints } from '@/contracts/console-endpoints'
import { revokeApiKey } from '@/server/api/revoke-api-key'
import { consoleHandler } from '@/server/console/console-handler'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/keys/:keyId']

/** Revokes a key; it stops working on the next request. */
export const DELETE = consoleHandler(endpoint.params, async ({ db }, { keyId }) => {
  await revokeApiKey({ db, id: keyId })
  return new Response(null, { status: 204 })
})
