import 'server-only'
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { sites } from '../db/schema'

/**
 * Creates the default site at first start and adds the configured origins to it on every start
 * (TESSERA_ALLOWED_ORIGINS only ever adds; origins removed in the console stay removed unless
 * they are still configured). Safe when several servers start at once.
 */
export async function ensureDefaultSite({ db, origins }: { db: Database; origins: string[] }) {
  const [site] = await db
    .insert(sites)
    .values({
      id: `site_${randomBytes(9).toString('base64url')}`,
      name: 'Default site',
      publicKey: `pk_${randomBytes(12).toString('base64url')}`,
      allowedOrigins: origins,
      isDefault: true,
    })
    .onConflictDoUpdate({
      target: sites.isDefault,
      targetWhere: sql`${sites.isDefault}`,
      set: {
        allowedOrigins: sql`(select array(select distinct unnest(${sites.allowedOrigins} || excluded.allowed_origins)))`,
      },
    })
    .returning({ publicKey: sites.publicKey })
  if (!site) throw new Error('The default site could not be created.')
  return { publicKey: site.publicKey }
}
