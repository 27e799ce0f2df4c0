import 'server-only'
import { desc, eq } from 'drizzle-orm'
import type { PolicyWithAudit } from '@/contracts/console'
import { SignupPolicy } from '@/contracts/signup-policy'
import type { Database } from '../db/client'
import { settingsAudit } from '../db/schema'
import { POLICY_SETTING, readSignupPolicy } from '../signup/policy/read-policy'

/** The sign-up policy in force and its latest changes, newest first: who changed what, and when. */
export async function readPolicyWithAudit({
  db,
  limit = 20,
}: {
  db: Database
  limit?: number
}): Promise<PolicyWithAudit> {
  const changes = await db
    .select({
      operator: settingsAudit.operator,
      before: settingsAudit.before,
      after: settingsAudit.after,
      changedAt: settingsAudit.changedAt,
    })
    .from(settingsAudit)
    .where(eq(settingsAudit.key, POLICY_SETTING))
    .orderBy(desc(settingsAudit.changedAt))
    .limit(limit)
  return {
    policy: await readSignupPolicy(db),
    // The audit column holds any setting's JSON: each entry is read as the policy it records.
    audit: changes.map((change) => ({
      ...change,
      before: SignupPolicy.nullable().parse(change.before),
      after: SignupPolicy.parse(change.after),
    })),
  }
}
