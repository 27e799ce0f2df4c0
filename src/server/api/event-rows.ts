import 'server-only'
import { sql } from 'drizzle-orm'
import { isStorableInstant, type StoredEvent } from '@/contracts/server-api'
import type { RowOf } from '../db/client'
import { eventSignals } from '../db/packed-signals'
import { events } from '../db/schema'
import { HttpError } from '../http/errors'
import { isStorableText } from '../http/storable-text'

/** The columns every Server API event answer selects, named as the answer names them. */
export const eventColumns = {
  requestId: events.requestId,
  visitorId: events.visitorId,
  visitorFound: events.visitorFound,
  createdAt: events.createdAt,
  confidence: events.confidence,
  ip: events.ip,
  userAgent: events.userAgent,
  url: events.url,
  siteKey: events.siteKey,
  tag: events.tag,
  linkedId: events.linkedId,
  signals: eventSignals(),
  suspectScore: events.suspectScore,
  // Qualified by hand: Drizzle writes a lone table's columns unqualified, which inside this
  // subquery would name the label's own column. Every reader selects `from events` unaliased.
  visitorLabel: sql<
    'fraud' | 'good' | null
  >`(select l.label from visitor_labels l where l.visitor_id = events.visitor_id)`,
}

export type EventRow = RowOf<typeof eventColumns>

/** The name of the site whose key an event carried (null: none, or a site deleted since). */
export const eventSiteName = sql<
  string | null
>`(select s.name from sites s where s.public_key = ${events.siteKey})`

/** The stored event as the API answers it: the row, its confidence as an object. */
export function toStoredEvent(row: EventRow): StoredEvent {
  return { ...row, confidence: { score: row.confidence } }
}

/** Opaque keyset cursor: the (created_at, request_id) of the last event on the page. */
export function encodeCursor(row: EventRow): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.requestId])).toString('base64url')
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
