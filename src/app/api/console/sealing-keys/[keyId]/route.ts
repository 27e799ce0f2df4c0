import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { removeSealingKey } from '@/server/sealing/remove-sealing-key'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/sealing-keys/:keyId']

/** Removes a sealing key: the next key seals from now on, or sealing stops. */
export const DELETE = consoleHandler(endpoint.params, async ({ db, operator }, { keyId }) => {
  await removeSealingKey({ db, keyId, operator: operator.username })
  return new Response(null, { status: 204 })
})
