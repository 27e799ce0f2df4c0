import { WebhookIdParam } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { listWebhookDeliveries } from '@/server/console/list-webhook-deliveries'
import { json } from '@/server/http/respond'
import { deleteWebhook } from '@/server/webhooks/delete-webhook'

export const dynamic = 'force-dynamic'

/** The webhook's delivery log, newest first. */
export const GET = consoleHandler(WebhookIdParam, async ({ db }, { webhookId }) =>
  json(await listWebhookDeliveries({ db, webhookId })),
)

export const DELETE = consoleHandler(WebhookIdParam, async ({ db }, { webhookId }) => {
  await deleteWebhook({ db, webhookId })
  return new Response(null, { status: 204 })
})
