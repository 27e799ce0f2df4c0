import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { readWebhookDelivery } from '@/server/console/list-webhook-deliveries'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/webhooks/:webhookId/deliveries/:deliveryId']

/** One delivery with each attempt's request and answer. */
export const GET = consoleHandler(endpoint.params, async ({ db }, { webhookId, deliveryId }) =>
  json((await readWebhookDelivery({ db, webhookId, deliveryId })) satisfies AnswerOf<typeof endpoint>),
)
