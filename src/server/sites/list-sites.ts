import 'server-only'
import { asc, desc, like, lte, sql } from 'drizzle-orm'
import { type SiteList, SiteSummary } from '@/contracts/console'
import { WEBHOOK_RESTORE_MINUTES } from '@/contracts/undo-windows'
import type { Database } from '../db/client'
import { apiKeys, sealingKeys, settingsAudit, sites, webhooks } from '../db/schema'
import { getEnv } from '../env'
import { recordSealingKeys } from '../sealing/record-sealing-keys'
import { siteColumns } from './find-site'

/** Changes to a site's sealing keys listed with it, newest first. */
const SEALING_KEY_CHANGES = 5
const KeyListing = SiteSummary.shape.sealingKeyChanges.element.shape.before

/**
 * Every site with its keys and webhooks, for the console; never a secret: API keys and webhook
 * signing secrets are shown once, in the answer that creates them. Also whether sealing keys are
 * encrypted at rest (TESSERA_ENCRYPTION_KEY).
 */
export async function listSites({
  db,
  encryptionKey = getEnv().TESSERA_ENCRYPTION_KEY,
}: {
  db: Database
  encryptionKey?: Buffer
}): Promise<SiteList> {
  const auditPrefix = recordSealingKeys.auditKey('')
  const rankedChanges = db
    .select({
      key: settingsAudit.key,
      operator: settingsAudit.operator,
      changedAt: settingsAudit.changedAt,
      before: settingsAudit.before,
      after: settingsAudit.after,
      rank: sql<number>`row_number() over (partition by ${settingsAudit.key}
        order by ${settingsAudit.changedAt} desc, ${settingsAudit.id} desc)`.as('rank'),
    })
    .from(settingsAudit)
    .where(like(settingsAudit.key, `${auditPrefix}%`))
    .as('ranked')
  const [siteRows, keyRows, webhookRows, sealingKeyRows, changeRows] = await Promise.all([
    db.select(siteColumns).from(sites).orderBy(desc(sites.isDefault), asc(sites.createdAt)),
    db
      .select({
        siteId: apiKeys.siteId,
        id: apiKeys.id,
        name: apiKeys.name,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .orderBy(desc(apiKeys.createdAt)),
    db
      .select({
        siteId: webhooks.siteId,
        id: webhooks.id,
        url: webhooks.url,
        enabled: webhooks.enabled,
        format: webhooks.format,
        events: webhooks.events,
        createdAt: webhooks.createdAt,
        deletedAt: webhooks.deletedAt,
      })
      .from(webhooks)
      // A deleted one is listed while it can be restored.
      .where(
        sql`${webhooks.deletedAt} is null or ${webhooks.deletedAt} > now() - make_interval(mins => ${WEBHOOK_RESTORE_MINUTES})`,
      )
      .orderBy(asc(webhooks.createdAt)),
    db
      .select({
        siteId: sealingKeys.siteId,
        id: sealingKeys.id,
        createdAt: sealingKeys.createdAt,
        // Only whether the key is wrapped: its material never leaves the database for a listing.
        encrypted: sql<boolean>`${sealingKeys.secret} like 'a256gcm.%'`,
      })
      .from(sealingKeys)
      .orderBy(asc(sealingKeys.createdAt), asc(sealingKeys.id)),
    db
      .select()
      .from(rankedChanges)
      .where(lte(rankedChanges.rank, SEALING_KEY_CHANGES))
      .orderBy(asc(rankedChanges.rank)),
  ])
  const ofSite = <Row extends { siteId: string }>(rows: Row[], siteId: string) =>
    rows.filter((row) => row.siteId === siteId).map(({ siteId: _, ...row }) => row)
  return {
    sites: siteRows.map((site) => ({
      ...site,
      apiKeys: ofSite(keyRows, site.id),
      webhooks: ofSite(webhookRows, site.id),
      sealingKeys: ofSite(sealingKeyRows, site.id),
      sealingKeyChanges: changeRows
        .filter((change) => change.key === recordSealingKeys.auditKey(site.id))
        .map((change) => ({
          operator: change.operator,
          changedAt: change.changedAt,
          // The audit column holds any setting's JSON: these entries are key listings.
          before: KeyListing.parse(change.before),
          after: KeyListing.parse(change.after),
        })),
    })),
    sealingKeysEncrypted: encryptionKey !== undefined,
  }
}
