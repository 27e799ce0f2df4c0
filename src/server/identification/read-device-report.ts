import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'

export interface ComponentUniqueness {
  component: string
  /** Visitors sharing this device's value, this one included. */
  sharedBy: number
  /** Visitors for which this component is known. */
  total: number
  /** Surprisal of the value among those visitors: log2(total / sharedBy). */
  bits: number
}

export interface DeviceVisit {
  requestId: string
  createdAt: string
  ip: string | null
  url: string | null
  confidence: number
  method: string
}

export interface DeviceReport {
  visitorId: string
  firstSeenAt: string
  lastSeenAt: string
  visits: number
  history: DeviceVisit[]
  uniqueness: ComponentUniqueness[]
}

/** What this server knows about one visitor, for the visitor's own eyes. */
export async function readDeviceReport({
  db,
  visitorId,
  historyLimit = 20,
}: {
  db: Database
  visitorId: string
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
  }>(
    db,
    sql`select request_id, created_at, ip, url, confidence, method from events
        where visitor_id = ${visitorId} order by created_at desc limit ${historyLimit}`,
  )
  return {
    visitorId,
    firstSeenAt: new Date(visitor.first_seen_at).toISOString(),
    lastSeenAt: new Date(visitor.last_seen_at).toISOString(),
    visits: visitor.visits,
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
