import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { retryDeliveryNow } from '@/server/webhooks/retry-delivery'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/webhooks/:webhookId/retries']

/** "Retry now": the delivery is due at once, even one the back-off gave up on. */
export const POST = consoleHandler(endpoint.params, async ({ db, request }, { webhookId }) => {
  const { deliveryId } = await parseRequest(request, endpoint.body)
  await retryDeliveryNow({ db, webhookId, deliveryId })
  return new Response(null, { status: 204 })
})
