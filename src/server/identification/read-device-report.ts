import 'server-only'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { DeviceReport } from '@/contracts/device'
import { type Database, selectRows } from '../db/client'
import { events, visitors } from '../db/schema'

/** A visit as the device report and the console's visitor panel list it. */
export const visitColumns = {
  requestId: events.requestId,
  createdAt: events.createdAt,
  ip: events.ip,
  url: events.url,
  confidence: events.confidence,
  method: events.method,
}

/**
 * What this server knows about one visitor, for the eyes of the browser that proves it is this
 * browser: the visits listed are this browser's own (its secret browser ID), never those of
 * another browser that merely shares the fingerprint.
 */
export async function readDeviceReport({
  db,
  visitorId,
  browserId,
  historyLimit = 20,
}: {
  db: Database
  visitorId: string
  browserId: string
  historyLimit?: number
}): Promise<DeviceReport | undefined> {
  const [visitor] = await selectRows(
    db,
    {
      // This browser's own visits as this visitor: another browser's, even on a copy of this
      // fingerprint, are not counted here (SECURITY.md).
      firstSeenAt: sql<string | null>`(select min(created_at) from events
        where events.browser_id = ${browserId} and events.visitor_id = ${visitors.id})`,
      lastSeenAt: sql<string | null>`(select max(created_at) from events
        where events.browser_id = ${browserId} and events.visitor_id = ${visitors.id})`,
      visits: sql<number>`(select count(*)::int from events
        where events.browser_id = ${browserId} and events.visitor_id = ${visitors.id})`,
      // Per component of the profile: how many visitors share its value, among all that have one
      // (counts inside JSON: numbers on both engines, a bigint sum included).
      uniqueness: sql<{ component: string; sharedBy: number; total: number }[] | null>`(
        select json_agg(json_build_object('component', p.component, 'sharedBy', mine.visitors,
                 'total', (select sum(all_values.visitors) from component_stats all_values
                           where all_values.component = p.component)))
        from jsonb_each_text(${visitors.profile}) as p(component, digest)
        join component_stats mine on mine.component = p.component and mine.digest = p.digest and mine.visitors > 0)`,
    },
    (select) => sql`select ${select} from visitors where id = ${visitorId}`,
    { prepared: true },
  )
  if (!visitor?.firstSeenAt || !visitor.lastSeenAt) return undefined
  const history = await db
    .select({ ...visitColumns, evidence: events.evidence })
    .from(events)
    .where(and(eq(events.browserId, browserId), eq(events.visitorId, visitorId)))
    .orderBy(desc(events.createdAt))
    .limit(historyLimit)
  const [latest] = history
  return {
    visitorId,
    firstSeenAt: visitor.firstSeenAt,
    lastSeenAt: visitor.lastSeenAt,
    visits: visitor.visits,
    latestMatch: latest
      ? { method: latest.method, confidence: latest.confidence, evidence: latest.evidence ?? null }
      : null,
    history: history.map(({ evidence: _, ...visit }) => visit),
    uniqueness: (visitor.uniqueness ?? []).map((entry) => {
      const total = Math.max(entry.total, 1)
      const sharedBy = Math.max(entry.sharedBy, 1)
      return { component: entry.component, sharedBy, total, bits: Math.log2(total / sharedBy) }
    }),
  }
}
