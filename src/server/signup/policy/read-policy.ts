import 'server-only'
import { type SignupPolicy, SignupPolicy as SignupPolicySchema } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
import { readSetting } from '../../settings/read-setting'

export const POLICY_SETTING = 'signup_policy'

/** The stored policy, with the defaults in code for anything never edited. */
export async function readSignupPolicy(db: Database): Promise<SignupPolicy> {
  const stored = await readSetting({ db, key: POLICY_SETTING })
  const parsed = SignupPolicySchema.safeParse(stored ?? {})
  return parsed.success ? parsed.data : SignupPolicySchema.parse({})
}
