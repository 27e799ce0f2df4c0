import 'server-only'
import { stringify } from 'csv-stringify/sync'
import { desc, sql } from 'drizzle-orm'
import type { EventFilter, ExportQuery } from '@/contracts/console'
import type { StoredEvent } from '@/contracts/server-api'
import { eventColumns, toStoredEvent } from '../api/event-rows'
import { type Database, selectRows } from '../db/client'
import { signupDecisions } from '../db/schema'
import { listRecentEvents } from './list-recent-events'
import { decisionColumns, decisionMoment, decisionsBefore } from './list-signup-decisions'

/** Rows read per query: memory holds one page, whatever the export's length. */
const PAGE = 500

type Cursor = { createdAt: string; requestId: string }
type Decision = Awaited<ReturnType<typeof readDecisionPage>>[number]
type Exported = { kind: 'event'; row: StoredEvent } | { kind: 'decision'; row: Decision }

/** The events the console's filter shows, newest first, a page at a time. */
async function* eventPages(db: Database, signal: EventFilter, pageSize: number) {
  let cursor: Cursor | undefined
  do {
    const page = await listRecentEvents({ db, signal, cursor, limit: pageSize })
    yield page.events
    const last = page.events[page.events.length - 1]
    cursor = page.nextCursor && last ? { createdAt: last.createdAt, requestId: last.requestId } : undefined
  } while (cursor)
}

/** One visitor's events, newest first. */
async function* visitorPages(db: Database, visitorId: string, pageSize: number) {
  let cursor: Cursor | undefined
  for (;;) {
    const rows = await selectRows(
      db,
      eventColumns,
      (select) => sql`select ${select} from events where visitor_id = ${visitorId}
        ${cursor ? sql`and (created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})` : sql``}
        order by created_at desc, request_id desc limit ${pageSize}`,
    )
    yield rows.map(toStoredEvent)
    const last = rows[rows.length - 1]
    if (rows.length < pageSize || !last) return
    cursor = { createdAt: last.createdAt, requestId: last.requestId }
  }
}

function readDecisionPage(db: Database, cursor: Cursor | undefined, pageSize: number) {
  return db
    .select(decisionColumns)
    .from(signupDecisions)
    .where(cursor ? decisionsBefore(cursor) : undefined)
    .orderBy(desc(decisionMoment), desc(signupDecisions.requestId))
    .limit(pageSize)
}

/** Sign-up decisions, newest first. */
async function* decisionPages(db: Database, pageSize: number) {
  let cursor: Cursor | undefined
  for (;;) {
    const rows = await readDecisionPage(db, cursor, pageSize)
    yield rows
    const last = rows[rows.length - 1]
    if (rows.length < pageSize || !last) return
    cursor = { createdAt: last.createdAt, requestId: last.requestId }
  }
}

async function* records(db: Database, query: ExportQuery, pageSize: number): AsyncGenerator<Exported[]> {
  if (query.kind === 'decisions') {
    for await (const page of decisionPages(db, pageSize)) yield page.map((row) => ({ kind: 'decision', row }))
    return
  }
  const pages =
    query.kind === 'visitor' && query.visitorId
      ? visitorPages(db, query.visitorId, pageSize)
      : eventPages(db, query.signal, pageSize)
  for await (const page of pages) yield page.map((row) => ({ kind: 'event', row }))
}

const eventHeader = [
  'time',
  'request_id',
  'visitor_id',
  'visitor_found',
  'confidence',
  'ip',
  'country',
  'network',
  'site_key',
  'url',
  'user_agent',
  'linked_id',
  'suspect_score',
  'signals',
  'tag',
]
const decisionHeader = [
  'time',
  'request_id',
  'visitor_id',
  'ip',
  'email',
  'outcome',
  'reasons',
  'challenge_solved',
  'account_id',
]

/** The signals that fired (a verdict other than "not detected"), by name. */
function firedSignals(event: StoredEvent): string {
  return Object.entries(event.signals as Record<string, { result?: unknown }>)
    .filter(
      ([name, signal]) =>
        name !== 'ipInfo' &&
        signal.result !== undefined &&
        signal.result !== false &&
        signal.result !== 'notDetected' &&
        typeof signal.result !== 'object',
    )
    .map(([name, signal]) => (typeof signal.result === 'string' ? `${name}:${signal.result}` : name))
    .join(' ')
}

function csvLine(record: Exported): string {
  // Cells an attacker wrote (a URL, a linked ID, a tag) must never run as a spreadsheet formula.
  const options = { escape_formulas: true }
  if (record.kind === 'decision') {
    const decision = record.row
    return stringify(
      [
        [
          decision.createdAt,
          decision.requestId,
          decision.visitorId ?? '',
          decision.ip ?? '',
          decision.email,
          decision.outcome,
          decision.reasons.map((reason) => reason.message).join(' '),
          decision.challengeSolved,
          decision.accountId ?? '',
        ],
      ],
      options,
    )
  }
  const event = record.row
  const info = (event.signals.ipInfo?.result ?? null) as Record<string, unknown> | null
  return stringify(
    [
      [
        event.createdAt,
        event.requestId,
        event.visitorId,
        event.visitorFound,
        event.confidence.score,
        event.ip ?? '',
        String(info?.countryCode ?? ''),
        info?.asn ? `AS${info.asn} ${String(info.asnOrganization ?? '')}`.trim() : '',
        event.siteKey ?? '',
        event.url ?? '',
        event.userAgent ?? '',
        event.linkedId ?? '',
        event.suspectScore,
        firedSignals(event),
        event.tag ? JSON.stringify(event.tag) : '',
      ],
    ],
    options,
  )
}

/**
 * An export as a stream of text chunks: CSV (a header, then a line per record) or a JSON array,
 * read a page at a time as the client takes them, so a long export never sits in memory.
 */
export function exportRecords(db: Database, query: ExportQuery, pageSize = PAGE): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const pages = records(db, query, pageSize)
  let first = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const header = query.kind === 'decisions' ? decisionHeader : eventHeader
      controller.enqueue(encoder.encode(query.format === 'csv' ? stringify([header]) : '['))
    },
    async pull(controller) {
      try {
        // A pull must enqueue or close: one that returns with nothing is not called again.
        for (;;) {
          const next = await pages.next()
          if (next.done) {
            if (query.format === 'json') controller.enqueue(encoder.encode(first ? ']\n' : '\n]\n'))
            controller.close()
            return
          }
          let chunk = ''
          for (const record of next.value) {
            if (query.format === 'csv') chunk += csvLine(record)
            else {
              chunk += `${first ? '\n' : ',\n'}${JSON.stringify(record.row)}`
              first = false
            }
          }
          if (chunk) {
            controller.enqueue(encoder.encode(chunk))
            return
          }
        }
      } catch (error) {
        controller.error(error)
      }
    },
    async cancel() {
      await pages.return(undefined)
    },
  })
}
