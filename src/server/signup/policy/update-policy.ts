import 'server-only'
import { eq } from 'drizzle-orm'
import type { SignupPolicy } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
import { settings, settingsAudit } from '../../db/schema'
import { HttpError } from '../../http/errors'
import { writeSetting } from '../../settings/write-setting'
import { findSite } from '../../sites/find-site'
import { configuredMailer } from '../challenges/mailer'
import { policyKey, readSitePolicy } from './read-policy'

/** 404 for a site key no site has: rules of their own are for sites that exist. */
async function assertKnownSite(db: Database, site?: string) {
  if (site && !(await findSite({ db, publicKey: site })))
    throw new HttpError('not_found', 'No site has this public key.')
}

/**
 * Saves the policy (the default, or one site's own) and its audit entry together; the next sign-up
 * decision uses it. Email codes need a mail server: without TESSERA_SMTP_URL that choice is refused
 * (400), not saved to fail later.
 */
export async function updateSignupPolicy({
  db,
  operator,
  policy,
  site,
}: {
  db: Database
  operator: string
  policy: SignupPolicy
  /** A site's public key: its own rules, no longer the default's. */
  site?: string
}) {
  if (policy.challengeKind === 'emailCode' && !configuredMailer()) {
    throw new HttpError('invalid_request', 'Some fields need attention.', {
      fields: {
        challengeKind:
          'Codes by email need a mail server: set TESSERA_SMTP_URL and restart, or keep the puzzle.',
      },
    })
  }
  await assertKnownSite(db, site)
  const { policy: before } = await readSitePolicy(db, site)
  await db.transaction(async (tx) => {
    await writeSetting({ db: tx, key: policyKey(site), value: policy })
    await tx.insert(settingsAudit).values({ key: policyKey(site), operator, before, after: policy })
  })
}

/** A site goes back to the default rules (its own are deleted, and the change audited). */
export async function inheritDefaultPolicy({
  db,
  operator,
  site,
}: {
  db: Database
  operator: string
  site: string
}) {
  await assertKnownSite(db, site)
  const { policy: before, inherited } = await readSitePolicy(db, site)
  if (inherited) throw new HttpError('conflict', 'This site already follows the default rules.')
  await db.transaction(async (tx) => {
    await tx.delete(settings).where(eq(settings.key, policyKey(site)))
    const { policy: after } = await readSitePolicy(tx, site)
    await tx.insert(settingsAudit).values({ key: policyKey(site), operator, before, after })
  })
}
