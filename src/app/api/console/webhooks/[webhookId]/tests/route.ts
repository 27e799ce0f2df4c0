import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { queueTestDelivery } from '@/server/webhooks/queue-test-delivery'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/webhooks/:webhookId/tests']

/** Queues a test delivery, sent within a second by the webhook worker and logged as any other. */
export const POST = consoleHandler(endpoint.params, async ({ db, request }, { webhookId }) => {
  await parseRequest(request, endpoint.body)
  const queued = await queueTestDelivery({ db, webhookId })
  return json(queued satisfies AnswerOf<typeof endpoint>, { status: 201 })
})
