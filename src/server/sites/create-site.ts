import 'server-only'
import { randomBytes } from 'node:crypto'
import type { CreatedSite } from '@/contracts/console'
import type { Database } from '../db/client'
import { sites } from '../db/schema'
import { clearSiteCache } from './find-site'

/** A new site with a fresh public key. */
export async function createSite({
  db,
  name,
  allowedOrigins,
}: {
  db: Database
  name: string
  allowedOrigins: string[]
}): Promise<CreatedSite> {
  const site = {
    id: `site_${randomBytes(9).toString('base64url')}`,
    name,
    publicKey: `pk_${randomBytes(12).toString('base64url')}`,
    allowedOrigins,
  } satisfies CreatedSite
  // A workspace of its own: the site shares no visitor identity with the others until grouped.
  await db.insert(sites).values({ ...site, workspace: site.id })
  clearSiteCache()
  return site
}
