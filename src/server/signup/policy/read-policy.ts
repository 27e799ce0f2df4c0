import 'server-only'
import { type SignupPolicy, SignupPolicy as SignupPolicySchema } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
import { readSetting } from '../../settings/read-setting'

export const POLICY_SETTING = 'signup_policy'

/** Where a policy is kept: the default's key, or a site's own (by its public key). */
export function policyKey(site?: string): string {
  return site ? `${POLICY_SETTING}:${site}` : POLICY_SETTING
}

/** A stored policy, with the defaults in code for anything never edited; null when none is stored. */
async function storedPolicy(db: Database, key: string): Promise<SignupPolicy | null> {
  const stored = await readSetting({ db, key })
  if (stored === undefined || stored === null) return null
  const parsed = SignupPolicySchema.safeParse(stored)
  return parsed.success ? parsed.data : null
}

/**
 * The policy a site's sign-ups are decided by, and whether it is the default it inherits: a site
 * without rules of its own (and any sign-up without a site) takes the default rules.
 */
export async function readSitePolicy(
  db: Database,
  site?: string,
): Promise<{ policy: SignupPolicy; inherited: boolean }> {
  const own = site ? await storedPolicy(db, policyKey(site)) : null
  if (own) return { policy: own, inherited: false }
  const fallback = (await storedPolicy(db, POLICY_SETTING)) ?? SignupPolicySchema.parse({})
  return { policy: fallback, inherited: site !== undefined }
}

/** The policy in force for a site's sign-ups (the default one without a site). */
export async function readSignupPolicy(db: Database, site?: string): Promise<SignupPolicy> {
  return (await readSitePolicy(db, site)).policy
}
