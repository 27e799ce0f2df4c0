import 'server-only'
import { desc, eq } from 'drizzle-orm'
import type { PolicyWithAudit } from '@/contracts/console'
import { SignupPolicy } from '@/contracts/signup-policy'
import type { Database } from '../db/client'
import { settingsAudit } from '../db/schema'
import { policyKey, readSitePolicy } from '../signup/policy/read-policy'

/** The sign-up policy in force and its latest changes, newest first: who changed what, and when. */
export async function readPolicyWithAudit({
  db,
  site,
  limit = 20,
}: {
  db: Database
  /** A site's public key: the rules its sign-ups follow (its own, or the default it inherits). */
  site?: string
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
    .where(eq(settingsAudit.key, policyKey(site)))
    .orderBy(desc(settingsAudit.changedAt))
    .limit(limit)
  const { policy, inherited } = await readSitePolicy(db, site)
  return {
    policy,
    inherited,
    // The audit column holds any setting's JSON: each entry is read as the policy it records.
    audit: changes.map((change) => ({
      ...change,
      before: SignupPolicy.nullable().parse(change.before),
      after: SignupPolicy.parse(change.after),
    })),
  }
}
