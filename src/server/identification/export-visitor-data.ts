import 'server-only'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { DeviceExport } from '@/contracts/device'
import { eventColumns } from '../api/event-rows'
import { type Database, selectRows } from '../db/client'
import { type Cursor, keysetPages } from '../db/keyset-pages'
import { events, visitors } from '../db/schema'
import { log } from '../log'
import { eventComponents } from './component-snapshots'

// An analyst's label stays out of what the device is given of itself: a fraud label would tell the
// fraudster which device to drop.
const { visitorLabel: _label, ...deviceEventColumns } = eventColumns

/** Events read per query: memory holds one page, however many events the browser produced. */
const PAGE = 200

/** One page of the browser's events, newest first, after `cursor` (created_at, then request ID). */
function readPage(db: Database, browserId: string, cursor: Cursor | undefined, pageSize: number) {
  return db
    .select({
      ...deviceEventColumns,
      method: events.method,
      evidence: events.evidence,
      // As identify checked and stored them (kept in their snapshot: component-snapshots.ts).
      components: eventComponents('events'),
    })
    .from(events)
    .where(
      and(
        eq(events.browserId, browserId),
        cursor
          ? sql`(${events.createdAt}, ${events.requestId}) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})`
          : undefined,
      ),
    )
    .orderBy(desc(events.createdAt), desc(events.requestId))
    .limit(pageSize)
}

/**
 * What one browser produced, for the visitor to download ("Export my data"): its own events (found
 * by its secret browser ID, never by a fingerprint), and its visitor's stored fingerprint digests
 * when this browser's visit is the one they follow. One JSON document (DeviceExport), written as a
 * stream a page of events at a time as the client reads it: a browser with months of visits never
 * sits in the server's memory whole. Undefined when the browser produced nothing stored.
 */
export async function exportVisitorData({
  db,
  visitorId,
  browserId,
  pageSize = PAGE,
}: {
  db: Database
  visitorId: string
  browserId: string
  pageSize?: number
}): Promise<ReadableStream<Uint8Array> | undefined> {
  const pages = keysetPages((cursor) => readPage(db, browserId, cursor, pageSize), pageSize)
  const first = await pages.next()
  if (first.done || first.value.length === 0) return undefined
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
  const head: Omit<DeviceExport, 'events'> = {
    exportedAt: new Date().toISOString(),
    visitor: visitor ?? { visitorId },
  }
  const encoder = new TextEncoder()
  let page = first.value
  let written = 0
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // The document's head, then its events array filled as pages are read.
      controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"events":[`))
    },
    async pull(controller) {
      try {
        let chunk = ''
        for (const event of page) {
          // Every event references a stored snapshot (component-snapshots.ts); none is read as no components.
          chunk += `${written++ === 0 ? '' : ','}\n${JSON.stringify({ ...event, components: event.components ?? {} })}`
        }
        const next = await pages.next()
        if (next.done || next.value.length === 0) {
          controller.enqueue(encoder.encode(`${chunk}\n]}\n`))
          controller.close()
          return
        }
        page = next.value
        controller.enqueue(encoder.encode(chunk))
      } catch (error) {
        // The answer has begun: the download ends cut short, and the operator finds why here.
        log.error({ err: error }, "an export of a device's data failed while it was sent")
        controller.error(error)
      }
    },
    async cancel() {
      await pages.return(undefined)
    },
  })
}
