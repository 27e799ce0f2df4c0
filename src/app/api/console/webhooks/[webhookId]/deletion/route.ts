import { consoleEndpoints } from '@/contracts/console-endpoints'
import { WEBHOOK_RESTORE_MINUTES } from '@/contracts/undo-windows'
import { consoleHandler } from '@/server/console/console-handler'
import { HttpError } from '@/server/http/errors'
import { restoreWebhook } from '@/server/webhooks/delete-webhook'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['DELETE /api/console/webhooks/:webhookId/deletion']

/** Undoes a webhook's deletion (deletes the deletion) within a few minutes of it. */
export const DELETE = consoleHandler(endpoint.params, async ({ db }, { webhookId }) => {
  if (!(await restoreWebhook({ db, webhookId })))
    throw new HttpError(
      'conflict',
      `This webhook can no longer be restored: a deletion can be undone for ${WEBHOOK_RESTORE_MINUTES} minutes. Add it again.`,
    )
  return new Response(null, { status: 204 })
})
