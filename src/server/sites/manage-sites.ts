import 'server-only'
import { sql } from 'drizzle-orm'
import type { SiteSummary } from '@/contracts/console'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'
import { recordSealingKeys } from '../sealing/record-sealing-keys'
import { clearSiteCache } from './find-site'

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
                      'enabled', w.enabled, 'format', w.format, 'createdAt', w.created_at) order by w.created_at)
                    from webhooks w where w.site_id = s.id), '[]') as webhooks,
          coalesce((select json_agg(json_build_object('id', k.id, 'createdAt', k.created_at,
                      'encrypted', k.secret like 'a256gcm.%') order by k.created_at, k.id)
                    from sealing_keys k where k.site_id = s.id), '[]') as "sealingKeys",
          coalesce((select json_agg(json_build_object('operator', a.operator, 'changedAt', a.changed_at,
                      'before', a.before, 'after', a.after) order by a.changed_at desc)
                    from (select * from settings_audit
                          where key = ${recordSealingKeys.auditKey('')}::text || s.id
                          order by changed_at desc, id desc limit 5) a), '[]') as "sealingKeyChanges"
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
