import 'server-only'
import { sql } from 'drizzle-orm'
import type { DeviceReport } from '@/contracts/device'
import { type Database, queryRows } from '../db/client'
import type { MatchEvidence } from './match-visitor'

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
  const [visitor] = await queryRows<{
    first_seen_at: string | Date
    last_seen_at: string | Date
    visits: number
    uniqueness: { component: string; shared_by: number; total: number }[] | null
  }>(
    db,
    sql`select v.first_seen_at, v.last_seen_at, v.visits,
          (select json_agg(json_build_object('component', p.component, 'shared_by', mine.visitors,
                    'total', (select sum(all_values.visitors) from component_stats all_values
                              where all_values.component = p.component)))
           from jsonb_each_text(v.profile) as p(component, digest)
           join component_stats mine on mine.component = p.component and mine.digest = p.digest) as uniqueness
        from visitors v where v.id = ${visitorId}`,
  )
  if (!visitor) return undefined
  const history = await queryRows<{
    request_id: string
    created_at: string | Date
    ip: string | null
    url: string | null
    confidence: number
    method: string
    evidence: MatchEvidence | null
  }>(
    db,
    sql`select request_id, created_at, ip, url, confidence, method, evidence from events
        where browser_id = ${browserId} and visitor_id = ${visitorId} order by created_at desc limit ${historyLimit}`,
  )
  const [latest] = history
  return {
    visitorId,
    firstSeenAt: new Date(visitor.first_seen_at).toISOString(),
    lastSeenAt: new Date(visitor.last_seen_at).toISOString(),
    visits: visitor.visits,
    latestMatch: latest
      ? { method: latest.method, confidence: latest.confidence, evidence: latest.evidence ?? null }
      : null,
    history: history.map((row) => ({
      requestId: row.request_id,
      createdAt: new Date(row.created_at).toISOString(),
      ip: row.ip,
      url: row.url,
      confidence: row.confidence,
      method: row.method,
    })),
    uniqueness: (visitor.uniqueness ?? []).map((entry) => {
      const total = Math.max(Number(entry.total), 1)
      const sharedBy = Math.max(Number(entry.shared_by), 1)
      return { component: entry.component, sharedBy, total, bits: Math.log2(total / sharedBy) }
    }),
  }
}
