import 'server-only'
import { eq, sql } from 'drizzle-orm'
import type { EventDetail } from '@/contracts/console'
import { eventColumns, eventSiteName, toStoredEvent } from '../api/event-rows'
import { type Database, selectRows } from '../db/client'
import { events, signupDecisions } from '../db/schema'
import { HttpError } from '../http/errors'
import { decisionColumns } from './list-signup-decisions'

/**
 * Everything the console shows about one identification: the event as the Server API answers it,
 * its site, how it was matched (and on which evidence), and the sign-up decision it was used for.
 */
export async function readEventDetail({
  db,
  requestId,
}: {
  db: Database
  requestId: string
}): Promise<EventDetail> {
  const [row] = await selectRows(
    db,
    {
      ...eventColumns,
      method: events.method,
      evidence: events.evidence,
      siteName: eventSiteName,
    },
    (select) => sql`select ${select} from ${events} where ${events.requestId} = ${requestId}`,
  )
  if (!row) throw new HttpError('not_found', 'No event has this request ID.')
  const { method, evidence, siteName, ...event } = row
  const [decision] = await db
    .select(decisionColumns)
    .from(signupDecisions)
    .where(eq(signupDecisions.requestId, requestId))
  return {
    event: toStoredEvent(event),
    siteName,
    method,
    evidence: evidence ?? null,
    decision: decision ?? null,
  }
}
