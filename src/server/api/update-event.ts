import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import type { Json } from '@/contracts/identify'
import { type Database, selectRows } from '../db/client'
import { HttpError } from '../http/errors'
import type { ApiCaller } from './authenticate-api-key'

export interface EventUpdate {
  linkedId?: string
  /** Replaces the event's tag as a whole. */
  tag?: Record<string, Json>
  suspect?: boolean
}

/**
 * Changes what the integrator may change on one of its site's events: its linked ID, its tag, and
 * the suspect flag. 404 for an unknown event, 403 for another site's (the /v4 face answers both
 * as not found).
 */
export async function updateEvent({
  db,
  caller,
  requestId,
  update,
}: {
  db: Database
  caller: Pick<ApiCaller, 'sitePublicKey'>
  requestId: string
  update: EventUpdate
}): Promise<void> {
  const changes: SQL[] = []
  if (update.linkedId !== undefined) changes.push(sql`linked_id = ${update.linkedId}`)
  if (update.tag !== undefined) changes.push(sql`tag = ${JSON.stringify(update.tag)}::jsonb`)
  if (update.suspect !== undefined) changes.push(sql`suspect = ${update.suspect}`)
  if (changes.length === 0) throw new HttpError('invalid_request', 'Nothing to change.')
  // One statement: the change, and whether the event exists at all (404) or is another site's (403).
  const [found] = await selectRows(
    db,
    {
      updated: sql<boolean>`exists(select 1 from updated)`,
      known: sql<boolean>`exists(select 1 from events where request_id = ${requestId})`,
    },
    (select) => sql`with updated as (
        update events set ${sql.join(changes, sql`, `)}
        where request_id = ${requestId} and site_key = ${caller.sitePublicKey} returning 1)
      select ${select}`,
  )
  if (found?.updated) return
  if (!found?.known) throw new HttpError('not_found', 'No event has this request ID.')
  throw new HttpError('forbidden')
}
