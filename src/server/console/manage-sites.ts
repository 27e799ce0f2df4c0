import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'
import { clearSiteCache } from '../sites/find-site'

export interface SiteSummary {
  id: string
  name: string
  publicKey: string
  allowedOrigins: string[]
  isDefault: boolean
  apiKeys: {
    id: string
    name: string
    createdAt: string
    lastUsedAt: string | null
    revokedAt: string | null
  }[]
  webhooks: { id: string; url: string; enabled: boolean; createdAt: string }[]
}

/**
 * Every site with its keys and webhooks, for the console; never a secret: API keys and webhook
 * signing secrets are shown once, in the answer that creates them.
 */
export async function listSites({ db }: { db: Database }): Promise<SiteSummary[]> {
  return queryRows<SiteSummary>(
    db,
    sql`select s.id, s.name, s.public_key as "publicKey", s.allowed_origins as "allowedOrigins",
          s.is_default as "isDefault",
          coalesce((select json_agg(json_build_object('id', k.id, 'name', k.name, 'createdAt', k.created_at,
                      'lastUsedAt', k.last_used_at, 'revokedAt', k.revoked_at) order by k.created_at desc)
                    from api_keys k where k.site_id = s.id), '[]') as "apiKeys",
          coalesce((select json_agg(json_build_object('id', w.id, 'url', w.url,
                      'enabled', w.enabled, 'createdAt', w.created_at) order by w.created_at)
                    from webhooks w where w.site_id = s.id), '[]') as webhooks
        from sites s order by s.is_default desc, s.created_at`,
  )
}

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
  const updated = await queryRows<{ id: string }>(
    db,
    sql`update sites set name = ${name}, allowed_origins = ${sql.param([...new Set(allowedOrigins)])}::text[]
        where id = ${siteId} returning id`,
  )
  if (updated.length === 0) throw new HttpError('not_found', 'No site has this ID.')
  clearSiteCache()
}

export async function assertSiteExists({ db, siteId }: { db: Database; siteId: string }) {
  const [row] = await queryRows<{ id: string }>(db, sql`select id from sites where id = ${siteId}`)
  if (!row) throw new HttpError('not_found', 'No site has this ID.')
}
