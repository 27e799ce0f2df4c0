import 'server-only'
import { eq, sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { events } from '../db/schema'
import { rateLimitRowKey } from '../rate-limit/rate-limiter'
import { browserBudgetKey, PER_VISITOR_LIMIT } from '../signup/per-visitor-limit'
import { takeOffStatistics } from './take-off-statistics'

/**
 * Deletes every stored trace of a visitor in one transaction: the visitor, its events, its blocking
 * keys (by cascade), its contribution to the value statistics, the webhook deliveries of its events
 * (pending or logged), its sign-up decisions and its browsers' sign-up rate-limit counters; its accounts stay
 * the integrator's records, unlinked (only their device mark remains, see decide-signup.ts).
 * Idempotent.
 */
export async function forgetVisitor({
  db,
  visitorId,
  browsers = [],
}: {
  db: Database
  visitorId: string
  /** Browsers whose events of this visitor the caller already deleted (their counters go too). */
  browsers?: readonly string[]
}): Promise<boolean> {
  // The sign-up counters: the visitor's, and those of the browsers that had events of it.
  const stored = await selectRows(
    db,
    { id: sql<string>`browser_id` },
    (select) =>
      sql`select distinct ${select} from events where visitor_id = ${visitorId} and browser_id is not null`,
  )
  const browserIds = new Set([...browsers, ...stored.map((browser) => browser.id)])
  const limitKeys = await Promise.all(
    [visitorId, ...[...browserIds].map(browserBudgetKey)].map((key) =>
      rateLimitRowKey({ db, limit: PER_VISITOR_LIMIT, key }),
    ),
  )
  return db.transaction(async (tx) => {
    // Locks in the order an identification's batch takes them, so neither waits on the other while
    // holding what it needs: the visitor, its events (whose delete trigger locks their component
    // snapshots), then its statistics rows (takeOffStatistics). An identification holding the
    // visitor's row (batch-write.ts upserts it with its event) makes the lock wait, and its event
    // committed before the events' statement began; the row, locked until this commits, keeps any later one out.
    await tx.execute(sql`select 1 from visitors where id = ${visitorId} for update`)
    await tx.execute(sql`with visits as (delete from events where visitor_id = ${visitorId} returning request_id),
        deliveries as (delete from webhook_deliveries where request_id in (select request_id from visits)),
        decisions as (delete from signup_decisions where visitor_id = ${visitorId})
      select 1`)
    const [result] = await selectRows(
      tx,
      { deleted: sql<number>`count(*)::int` },
      (select) => sql`with gone as (delete from visitors where id = ${visitorId} returning profile, counted),
          counted as (
            select p.component, p.digest, case when gone.counted then 1 else 0 end as n, 1 as n_all
            from gone, jsonb_each_text(gone.profile) as p(component, digest)),
          ${takeOffStatistics(sql`counted`)},
          accounts as (update accounts set visitor_id = null where visitor_id = ${visitorId}),
          limits as (delete from rate_limits where key = any(${sql.param(limitKeys)}::text[]))
          select ${select} from gone`,
    )
    return (result?.deleted ?? 0) > 0
  })
}

/** What "forget this device" erased, so the browser can be told the truth. */
export interface ForgottenBrowser {
  /** This browser's visits deleted. */
  deletedVisits: number
  /** Whether its visitor is gone whole (no other browser had visits of it). */
  visitorDeleted: boolean
}

/**
 * "Forget this device", for the browser that proves it is this browser (its secret browser ID):
 * deletes the events it produced, their webhook deliveries and the sign-up decisions made on them,
 * and unlinks the accounts it created from it (they stay the integrator's records). A visitor left with no
 * event is deleted whole, so the next visit is a new visitor. A visitor other browsers still have
 * events of stays, whoever created it: a copied fingerprint must never erase someone else's data,
 * not even by creating the visitor before its owner came (SECURITY.md). Its visit count then
 * loses this browser's visits, so it still agrees with the events that are left.
 */
export async function forgetBrowser({
  db,
  browserId,
}: {
  db: Database
  browserId: string
}): Promise<ForgottenBrowser> {
  return db.transaction(async (tx) => {
    // Its visitors first, in a batch's order, as identification and retention lock them before their events.
    await tx.execute(sql`select 1 from visitors
      where id in (select visitor_id from events where browser_id = ${browserId})
      order by id collate "C" for update`)
    const affected = await selectRows(
      tx,
      { visitorId: sql<string>`gone.visitor_id`, deleted: sql<number>`count(*)::int` },
      (select) => sql`with gone as (delete from events where browser_id = ${browserId}
            returning request_id, visitor_id),
          deliveries as (delete from webhook_deliveries where request_id in (select request_id from gone)),
          decisions as (delete from signup_decisions where request_id in (select request_id from gone)),
          accounts as (update accounts set browser_id = null where browser_id = ${browserId})
        select ${select} from gone group by gone.visitor_id`,
    )
    let visitorDeleted = affected.length > 0
    for (const { visitorId, deleted } of affected) {
      const left = await tx.$count(events, eq(events.visitorId, visitorId))
      if (left === 0) {
        await forgetVisitor({ db: tx, visitorId, browsers: [browserId] })
        continue
      }
      visitorDeleted = false
      await tx.execute(
        sql`update visitors set visits = greatest(visits - ${deleted}, ${left}) where id = ${visitorId}`,
      )
    }
    return { deletedVisits: affected.reduce((sum, { deleted }) => sum + deleted, 0), visitorDeleted }
  })
}
