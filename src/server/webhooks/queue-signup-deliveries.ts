import 'server-only'
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import type { Reason } from '../signup/policy/evaluate-policy'

/** A sign-up decision as webhooks receive it (`type: 'signup'`, under `event` as identifications are). */
export interface SignupDecisionEvent {
  /** The identification the sign-up used: a forget of its visitor deletes this delivery too. */
  requestId: string
  visitorId: string
  createdAt: string
  /** What was decided and stored (the visitor may have been told otherwise: see the reasons). */
  outcome: 'allow' | 'challenge' | 'deny'
  reasons: Reason[]
  email: string
  /** The account created; null when none was. */
  accountId: string | null
  challengeSolved: boolean
  /** The analyst's label of the device when the sign-up was decided (the rules read it too). */
  visitorLabel: 'fraud' | 'good' | null
}

/**
 * Queues a sign-up decision for each enabled webhook of the identification's site that asked for
 * sign-up decisions, in the caller's transaction: the decision and its deliveries commit together.
 */
export async function queueSignupDeliveries(
  db: Database,
  { siteKey, decision }: { siteKey: string | null; decision: SignupDecisionEvent },
) {
  if (siteKey === null) return
  const payload = JSON.stringify({ type: 'signup', event: decision })
  await db.execute(sql`insert into webhook_deliveries (id, webhook_id, event_type, payload)
    select ${decision.requestId} || ':signup:' || w.id, w.id, 'signup', ${payload}::jsonb
    from sites s join webhooks w on w.site_id = s.id
    where s.public_key = ${siteKey} and w.enabled and w.deleted_at is null and 'signup' = any(w.events)`)
}
