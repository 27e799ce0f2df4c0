import { sql } from 'drizzle-orm'
import { consoleHandler } from '@/server/console/console-handler'
import { queryRows } from '@/server/db/client'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

/** The latest sign-up decisions with their reasons. */
export const GET = consoleHandler(async ({ db }) => {
  const decisions = await queryRows<Record<string, unknown>>(
    db,
    sql`select request_id as "requestId", visitor_id as "visitorId", ip, email, outcome, reasons,
          challenge_solved as "challengeSolved", account_id as "accountId", created_at as "createdAt"
        from signup_decisions order by created_at desc limit 25`,
  )
  return json({ decisions })
})
