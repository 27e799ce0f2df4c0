import 'server-only'
import type { SignupPolicy } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
import { settingsAudit } from '../../db/schema'
import { HttpError } from '../../http/errors'
import { writeSetting } from '../../settings/write-setting'
import { configuredMailer } from '../challenges/mailer'
import { POLICY_SETTING, readSignupPolicy } from './read-policy'

/**
 * Saves the policy and its audit entry together; the next sign-up decision uses it. Email codes
 * need a mail server: without TESSERA_SMTP_URL that choice is refused (400), not saved to fail later.
 */
export async function updateSignupPolicy({
  db,
  operator,
  policy,
}: {
  db: Database
  operator: string
  policy: SignupPolicy
}) {
  if (policy.challengeKind === 'emailCode' && !configuredMailer()) {
    throw new HttpError('invalid_request', 'Some fields need attention.', {
      fields: {
        challengeKind:
          'Codes by email need a mail server: set TESSERA_SMTP_URL and restart, or keep the puzzle.',
      },
    })
  }
  const before = await readSignupPolicy(db)
  await db.transaction(async (tx) => {
    await writeSetting({ db: tx, key: POLICY_SETTING, value: policy })
    await tx.insert(settingsAudit).values({ key: POLICY_SETTING, operator, before, after: policy })
  })
}
