import 'server-only'
import { sql } from 'drizzle-orm'
import { isStorableInstant, type StoredEvent } from '@/contracts/server-api'
import { HttpError } from '../http/errors'
import { isStorableText } from '../http/storable-text'

/** The columns every Server API event answer selects. */
export const eventColumns = sql`request_id, visitor_id, visitor_found, created_at, confidence, ip, user_agent,
  url, site_key, tag, linked_id, signals, suspect_score`

export interface EventRow {
  request_id: string
  visitor_id: string
  visitor_found: boolean
  created_at: string | Date
  confidence: number
  ip: string | null
  user_agent: string | null
  url: string | null
  site_key: string | null
  tag: StoredEvent['tag']
  linked_id: string | null
  signals: StoredEvent['signals']
  suspect_score: number
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    requestId: row.request_id,
    visitorId: row.visitor_id,
    visitorFound: row.visitor_found,
    createdAt: new Date(row.created_at).toISOString(),
    confidence: { score: row.confidence },
    ip: row.ip,
    userAgent: row.user_agent,
    url: row.url,
    siteKey: row.site_key,
    tag: row.tag,
    linkedId: row.linked_id,
    signals: row.signals,
    suspectScore: row.suspect_score,
  }
}

/** Opaque keyset cursor: the (created_at, request_id) of the last event on the page. */
export function encodeCursor(row: EventRow): string {
  return Buffer.from(JSON.stringify([new Date(row.created_at).toISOString(), row.request_id])).toString(
    'base64url',
  )
}

export function decodeCursor(cursor: string): { createdAt: string; requestId: string } {
  try {
    const [createdAt, requestId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    const time = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN
    // A forged cursor reaches SQL: only a normalised date PostgreSQL accepts and storable text.
    if (
      typeof requestId === 'string' &&
      requestId.length <= 64 &&
      isStorableText(requestId) &&
      isStorableInstant(time)
    ) {
      return { createdAt: new Date(time).toISOString(), requestId }
    }
  } catch {}
  throw new HttpError('invalid_request', 'The cursor is not valid; pass back nextCursor unchanged.')
}

/** One page of rows (asked for limit + 1) into events and the next cursor. */
export function toPage(rows: EventRow[], limit: number) {
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return {
    events: page.map(toStoredEvent),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  }
}
