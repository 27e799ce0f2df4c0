import { sql } from 'drizzle-orm'
import { consoleHandler } from '@/server/console/console-handler'
import { queryRows } from '@/server/db/client'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** The webhook's delivery log, newest first. */
export const GET = consoleHandler<{ webhookId: string }>(async ({ db }, { webhookId }) => {
  const deliveries = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, event_type as "eventType", created_at as "createdAt", attempts, next_attempt_at as "nextAttemptAt",
          delivered_at as "deliveredAt", failed_at as "failedAt", last_status as "lastStatus", last_error as "lastError"
        from webhook_deliveries where webhook_id = ${webhookId} order by created_at desc limit 50`,
  )
  return json({ deliveries })
})

export const DELETE = consoleHandler<{ webhookId: string }>(async ({ db }, { webhookId }) => {
  await db.execute(sql`delete from webhooks where id = ${webhookId}`)
  return new Response(null, { status: 204 })
})
