import { consoleEndpoints } from '@/contracts/console-endpoints'
import { KEY_RESTORE_MINUTES } from '@/contracts/undo-windows'
import { restoreApiKey } from '@/server/api/restore-api-key'
import { consoleHandler } from '@/server/console/console-handler'
import { HttpError } from '@/server/http/errors'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/keys/:keyId/revocation']

/** Undoes a key's revocation (deletes it) within a few minutes of it. */
export const DELETE = consoleHandler(endpoint.params, async ({ db }, { keyId }) => {
  if (!(await restoreApiKey({ db, id: keyId })))
    throw new HttpError(
      'conflict',
      `This key can no longer be restored: a revocation can be undone for ${KEY_RESTORE_MINUTES} minutes. Create a new key.`,
    )
  return new Response(null, { status: 204 })
})
