import 'server-only'
import { eq } from 'drizzle-orm'
import type { StoredEvent } from '@/contracts/server-api'
import type { Database } from '../db/client'
import { events } from '../db/schema'
import { HttpError } from '../http/errors'
import type { ApiCaller } from './authenticate-api-key'
import { eventColumns, toStoredEvent } from './event-rows'

/** One stored event, for the site it belongs to. */
export async function readEvent({
  db,
  caller,
  requestId,
}: {
  db: Database
  caller: Pick<ApiCaller, 'sitePublicKey'>
  requestId: string
}): Promise<StoredEvent> {
  const [row] = await db.select(eventColumns).from(events).where(eq(events.requestId, requestId))
  if (!row) throw new HttpError('not_found', 'No event has this request ID.')
  if (row.siteKey !== caller.sitePublicKey) throw new HttpError('forbidden')
  return toStoredEvent(row)
}
