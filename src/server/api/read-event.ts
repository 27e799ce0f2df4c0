import 'server-only'
import { sql } from 'drizzle-orm'
import type { StoredEvent } from '@/contracts/server-api'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'
import type { ApiCaller } from './authenticate-api-key'
import { type EventRow, eventColumns, toStoredEvent } from './event-rows'

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
  const [row] = await queryRows<EventRow>(
    db,
    sql`select ${eventColumns} from events where request_id = ${requestId}`,
  )
  if (!row) throw new HttpError('not_found', 'No event has this request ID.')
  if (row.site_key !== caller.sitePublicKey) throw new HttpError('forbidden')
  return toStoredEvent(row)
}
