import 'server-only'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { settingsAudit, sites } from '../db/schema'
import { HttpError } from '../http/errors'
import { DEFAULT_WORKSPACE } from '../identification/blocking-keys'
import { clearSiteCache } from './find-site'

/**
 * Puts a site in another site's workspace (they then share visitor identity: IDs, history,
 * velocity), or back in a workspace of its own (`shareWith` null), with its audit entry in the
 * same transaction. Visitors stay in the workspace they were stored in: a site that moves meets
 * the devices of its new workspace, not those it saw before.
 */
export async function setSiteWorkspace({
  db,
  siteId,
  shareWith,
  operator,
}: {
  db: Database
  siteId: string
  shareWith: string | null
  operator: string
}) {
  await db.transaction(async (tx) => {
    const [site] = await tx
      .select({ workspace: sites.workspace, isDefault: sites.isDefault })
      .from(sites)
      .where(eq(sites.id, siteId))
    if (!site) throw new HttpError('not_found', 'No site has this ID.')
    // The default site's own workspace is the one Tessera's own pages have always used.
    let workspace = site.isDefault ? DEFAULT_WORKSPACE : siteId
    if (shareWith !== null && shareWith !== siteId) {
      const [other] = await tx
        .select({ workspace: sites.workspace })
        .from(sites)
        .where(eq(sites.id, shareWith))
      if (!other) throw new HttpError('not_found', 'The site to share visitors with does not exist.')
      workspace = other.workspace
    }
    if (workspace === site.workspace) return
    await tx.update(sites).set({ workspace }).where(eq(sites.id, siteId))
    await tx.insert(settingsAudit).values({
      key: `site_workspace:${siteId}`,
      operator,
      before: { workspace: site.workspace },
      after: { workspace },
    })
  })
  clearSiteCache()
}
