import { SealingKeyIdParam } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { removeSealingKey } from '@/server/sealing/remove-sealing-key'

export const dynamic = 'force-dynamic'

/** Removes a sealing key: the next key seals from now on, or sealing stops. */
export const DELETE = consoleHandler(SealingKeyIdParam, async ({ db, operator }, { keyId }) => {
  await removeSealingKey({ db, keyId, operator: operator.username })
  return new Response(null, { status: 204 })
})
