import { sql } from 'drizzle-orm'
import { SignupPolicy } from '@/contracts/signup-policy'
import { consoleHandler } from '@/server/console/console-handler'
import { updateSignupPolicy } from '@/server/console/update-signup-policy'
import { queryRows } from '@/server/db/client'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { POLICY_SETTING, readSignupPolicy } from '@/server/signup/signup-policy-store'

export const dynamic = 'force-dynamic'

/** The sign-up policy and its audit trail. */
export const GET = consoleHandler(async ({ db }) => {
  const audit = await queryRows<Record<string, unknown>>(
    db,
    sql`select operator, before, after, changed_at as "changedAt" from settings_audit
        where key = ${POLICY_SETTING} order by changed_at desc limit 20`,
  )
  return json({ policy: await readSignupPolicy(db), audit })
})

export const PUT = consoleHandler(async ({ db, operator, request }) => {
  const policy = await parseRequest(request, SignupPolicy.strict())
  await updateSignupPolicy({ db, operator: operator.username, policy })
  return json({ policy })
})
