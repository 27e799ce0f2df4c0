import 'server-only'
import { desc, eq, sql } from 'drizzle-orm'
import type { DeviceExport } from '@/contracts/device'
import { eventColumns } from '../api/event-rows'
import { type Database, selectRows } from '../db/client'
import { events, visitors } from '../db/schema'
import { eventComponents } from './component-snapshots'

// An analyst's label stays out of what the device is given of itself: a fraud label would tell the
// fraudster which device to drop.
const { visitorLabel: _label, ...deviceEventColumns } = eventColumns

/**
 * What one browser produced, as one JSON document for the visitor to download: its own events
 * (found by its secret browser ID, never by a fingerprint), and its visitor's stored fingerprint
 * digests when this browser's visit is the one they follow.
 */
export async function exportVisitorData({
  db,
  visitorId,
  browserId,
}: {
  db: Database
  visitorId: string
  browserId: string
}): Promise<DeviceExport | undefined> {
  const produced = await db
    .select({
      ...deviceEventColumns,
      method: events.method,
      evidence: events.evidence,
      // As identify checked and stored them (kept in their snapshot: component-snapshots.ts).
      components: eventComponents('events'),
    })
    .from(events)
    .where(eq(events.browserId, browserId))
    .orderBy(desc(events.createdAt))
  if (produced.length === 0) return undefined
  const [visitor] = await selectRows(
    db,
    {
      visitorId: visitors.id,
      firstSeenAt: visitors.firstSeenAt,
      lastSeenAt: visitors.lastSeenAt,
      fingerprintDigests: sql<Record<string, string> | null>`case when (
        select browser_id from events where visitor_id = ${visitors.id} order by created_at desc limit 1
      ) = ${browserId} then ${visitors.profile} end`,
    },
    (select) => sql`select ${select} from visitors where id = ${visitorId}`,
    { prepared: true },
  )
  return {
    exportedAt: new Date().toISOString(),
    visitor: visitor ?? { visitorId },
    // Every event references a stored snapshot (component-snapshots.ts); none is read as no components.
    events: produced.map((event) => ({ ...event, components: event.components ?? {} })),
  }
}
