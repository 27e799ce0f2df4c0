import 'server-only'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { sites } from '../db/schema'
import { HttpError } from '../http/errors'
import { clearSiteCache } from './find-site'

export async function updateSite({
  db,
  siteId,
  name,
  allowedOrigins,
}: {
  db: Database
  siteId: string
  name: string
  allowedOrigins: string[]
}) {
  const updated = await db
    .update(sites)
    .set({ name, allowedOrigins: [...new Set(allowedOrigins)] })
    .where(eq(sites.id, siteId))
    .returning({ id: sites.id })
  if (updated.length === 0) throw new HttpError('not_found', 'No site has this ID.')
  clearSiteCache()
}

/** Replaces a site's deny and allow lists (already normalised and checked by SiteListsInput). */
export async function setSiteLists({
  db,
  siteId,
  deny,
  allow,
}: {
  db: Database
  siteId: string
  deny: string[]
  allow: string[]
}) {
  const updated = await db
    .update(sites)
    .set({ denyList: deny, allowList: allow })
    .where(eq(sites.id, siteId))
    .returning({ id: sites.id })
  if (updated.length === 0) throw new HttpError('not_found', 'No site has this ID.')
  clearSiteCache()
}

export async function assertSiteExists({ db, siteId }: { db: Database; siteId: string }) {
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId))
  if (!site) throw new HttpError('not_found', 'No site has this ID.')
}
