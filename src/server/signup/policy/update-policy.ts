import 'server-only'
import type { SignupPolicy } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
import { settingsAudit } from '../../db/schema'
import { writeSetting } from '../../settings/write-setting'
import { POLICY_SETTING, readSignupPolicy } from './read-policy'

/** Saves the policy and its audit entry together; the next sign-up decision uses it. */
export async function updateSignupPolicy({
  db,
  operator,
  policy,
}: {
  db: Database
  operator: string
  policy: SignupPolicy
}) {
  const before = await readSignupPolicy(db)
  await db.transaction(async (tx) => {
    await writeSetting({ db: tx, key: POLICY_SETTING, value: policy })
    await tx.insert(settingsAudit).values({ key: POLICY_SETTING, operator, before, after: policy })
  })
}
