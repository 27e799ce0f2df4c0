import 'server-only'
import { sql } from 'drizzle-orm'
import type { SignupPolicy } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
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
    await tx.execute(
      sql`insert into settings (key, value) values (${POLICY_SETTING}, ${JSON.stringify(policy)}::jsonb)
          on conflict (key) do update set value = excluded.value, updated_at = now()`,
    )
    await tx.execute(
      sql`insert into settings_audit (key, operator, before, after)
          values (${POLICY_SETTING}, ${operator}, ${JSON.stringify(before)}::jsonb, ${JSON.stringify(policy)}::jsonb)`,
    )
  })
}
