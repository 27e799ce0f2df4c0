import { ApiKeyIdParam } from '@/contracts/console'
import { revokeApiKey } from '@/server/api/revoke-api-key'
import { consoleHandler } from '@/server/console/console-handler'

export const dynamic = 'force-dynamic'

/** Revokes a key; it stops working on the next request. */
export const DELETE = consoleHandler(ApiKeyIdParam, async ({ db }, { keyId }) => {
  await revokeApiKey({ db, id: keyId })
  return new Response(null, { status: 204 })
})
