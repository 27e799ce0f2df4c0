import 'server-only'
import { desc } from 'drizzle-orm'
import type { SignupDecisionList } from '@/contracts/console'
import type { Database } from '../db/client'
import { signupDecisions } from '../db/schema'

/** A sign-up decision as the console shows it. */
export const decisionColumns = {
  requestId: signupDecisions.requestId,
  visitorId: signupDecisions.visitorId,
  ip: signupDecisions.ip,
  email: signupDecisions.email,
  outcome: signupDecisions.outcome,
  reasons: signupDecisions.reasons,
  challengeSolved: signupDecisions.challengeSolved,
  accountId: signupDecisions.accountId,
  createdAt: signupDecisions.createdAt,
}

/** The latest sign-up decisions with their reasons, newest first. */
export async function listSignupDecisions({
  db,
  limit = 25,
}: {
  db: Database
  limit?: number
}): Promise<SignupDecisionList> {
  const decisions = await db
    .select(decisionColumns)
    .from(signupDecisions)
    .orderBy(desc(signupDecisions.createdAt))
    .limit(limit)
  return { decisions }
}
