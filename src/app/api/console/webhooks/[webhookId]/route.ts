import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { listWebhookDeliveries } from '@/server/console/list-webhook-deliveries'
import { json } from '@/server/http/respond'
import { deleteWebhook } from '@/server/webhooks/delete-webhook'

export const dynamic = 'force-dynamic'

const logEndpoint = consoleEndpoints['GET /api/console/webhooks/:webhookId']
const removeEndpoint = consoleEndpoints['DELETE /api/console/webhooks/:webhookId']

/** The webhook's delivery log, newest first. */
export const GET = consoleHandler(logEndpoint.params, async ({ db }, { webhookId }) =>
  json((await listWebhookDeliveries({ db, webhookId })) satisfies AnswerOf<typeof logEndpoint>),
)

export const DELETE = consoleHandler(removeEndpoint.params, async ({ db }, { webhookId }) => {
  await deleteWebhook({ db, webhookId })
  return new Response(null, { status: 204 })
})
