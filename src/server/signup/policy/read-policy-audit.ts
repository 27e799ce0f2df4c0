import 'server-only'
import { sql } from 'drizzle-orm'
import type { SignupPolicy } from '@/contracts/signup-policy'
import { type Database, queryRows } from '../../db/client'
import { POLICY_SETTING } from './read-policy'

export interface PolicyChange {
  operator: string
  before: SignupPolicy | null
  after: SignupPolicy
  changedAt: string | Date
}

/** The latest changes to the sign-up policy, newest first: who changed what, and when. */
export function readPolicyAudit(db: Database, limit = 20): Promise<PolicyChange[]> {
  return queryRows<PolicyChange>(
    db,
    sql`select operator, before, after, changed_at as "changedAt" from settings_audit
        where key = ${POLICY_SETTING} order by changed_at desc limit ${limit}`,
  )
}
