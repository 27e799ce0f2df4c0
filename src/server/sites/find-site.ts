import 'server-only'
import { eq } from 'drizzle-orm'
import type { Database, RowOf } from '../db/client'
import { sites } from '../db/schema'
import { isStorableText } from '../http/storable-text'
import { processWide } from '../process-wide'

/** What every reader of a site needs of it (identify, /frame, the console's listing). */
export const siteColumns = {
  id: sites.id,
  name: sites.name,
  publicKey: sites.publicKey,
  allowedOrigins: sites.allowedOrigins,
  isDefault: sites.isDefault,
  workspace: sites.workspace,
  denyList: sites.denyList,
  allowList: sites.allowList,
}
export type Site = RowOf<typeof siteColumns>

// Frames and identify calls read sites on every request; a short cache keeps that off the
// database while letting a console change reach every app server within seconds. One per
// process, so clearSiteCache() reaches every bundle that reads it.
const TTL_MS = 5_000
const siteCache = () =>
  processWide('siteCache', () => new Map<string, { site: Site | undefined; expires: number }>())

/** The site with this public key (or the default site when no key is given). */
export async function findSite({
  db,
  publicKey,
}: {
  db: Database
  publicKey?: string
}): Promise<Site | undefined> {
  // A key PostgreSQL cannot even compare (`/frame?siteKey=a%00b`) names no site.
  if (publicKey !== undefined && !isStorableText(publicKey)) return undefined
  const cacheKey = publicKey ?? ''
  const cache = siteCache()
  const cached = cache.get(cacheKey)
  if (cached && cached.expires > Date.now()) return cached.site
  const [site] = await db
    .select(siteColumns)
    .from(sites)
    .where(publicKey ? eq(sites.publicKey, publicKey) : eq(sites.isDefault, true))
  cache.set(cacheKey, { site, expires: Date.now() + TTL_MS })
  return site
}

/** Forgets cached sites, after the console changed one. */
export function clearSiteCache() {
  siteCache().clear()
}
