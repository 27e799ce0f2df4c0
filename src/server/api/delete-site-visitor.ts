import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { forgetVisitor } from '../identification/forget-visitor'
import type { ApiCaller } from './authenticate-api-key'

/**
 * DELETE /api/v1/visitors/{id} for one site: that site's events of the visitor go, with their
 * webhook deliveries and sign-up decisions (their accounts unlinked). The visitor itself (keys,
 * statistics, everything else) goes only when no other site's event of it remains. Returns how many
 * of the site's events went.
 */
export async function deleteSiteVisitor({
  db,
  caller,
  visitorId,
}: {
  db: Database
  caller: Pick<ApiCaller, 'sitePublicKey'>
  visitorId: string
}): Promise<{ deleted: number }> {
  return db.transaction(async (tx) => {
    // The visitor first, as an identification's batch and retention lock it before its events.
    await tx.execute(sql`select 1 from visitors where id = ${visitorId} for update`)
    const [result] = await selectRows(
      tx,
      {
        deleted: sql<number>`(select count(*) from gone)::int`,
        browsers: sql<
          string[]
        >`(select coalesce(array_agg(distinct browser_id), '{}') from gone where browser_id is not null)`,
        elsewhere: sql<boolean>`exists(
          select 1 from events where visitor_id = ${visitorId} and site_key is distinct from ${caller.sitePublicKey})`,
      },
      (select) => sql`with gone as (
            delete from events where visitor_id = ${visitorId} and site_key = ${caller.sitePublicKey}
            returning request_id, browser_id),
          deliveries as (delete from webhook_deliveries where request_id in (select request_id from gone)),
          decisions as (
            delete from signup_decisions where request_id in (select request_id from gone) returning account_id),
          accounts as (update accounts set visitor_id = null where id in (select account_id from decisions))
          select ${select}`,
    )
    // A visitor this site never saw is not this site's to erase, even with no events left anywhere.
    if (result && result.deleted > 0 && !result.elsewhere)
      await forgetVisitor({ db: tx, visitorId, browsers: result.browsers })
    return { deleted: result?.deleted ?? 0 }
  })
}
