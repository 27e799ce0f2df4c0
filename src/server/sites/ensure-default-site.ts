import 'server-only'
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

/**
 * Creates the default site at first start and adds the configured origins to it on every start
 * (TESSERA_ALLOWED_ORIGINS only ever adds; origins removed in the console stay removed unless
 * they are still configured). Safe when several servers start at once.
 */
export async function ensureDefaultSite({ db, origins }: { db: Database; origins: string[] }) {
  const id = `site_${randomBytes(9).toString('base64url')}`
  const publicKey = `pk_${randomBytes(12).toString('base64url')}`
  const [site] = await queryRows<{ public_key: string }>(
    db,
    sql`insert into sites (id, name, public_key, allowed_origins, is_default)
        values (${id}, 'Default site', ${publicKey}, ${sql.param(origins)}::text[], true)
        on conflict (is_default) where is_default do update
          set allowed_origins = (select array(select distinct unnest(sites.allowed_origins || excluded.allowed_origins)))
        returning public_key`,
  )
  if (!site) throw new Error('The default site could not be created.')
  return { publicKey: site.public_key }
}
