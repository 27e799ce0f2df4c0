import 'server-only'
import { stringify } from 'csv-stringify/sync'
import { and, desc, sql } from 'drizzle-orm'
import type { DecisionFilters, ExportQuery } from '@/contracts/console'
import type { StoredEvent } from '@/contracts/server-api'
import { eventColumns, toStoredEvent } from '../api/event-rows'
import { type Database, selectRows } from '../db/client'
import { type Cursor, keysetPages } from '../db/keyset-pages'
import { signupDecisions } from '../db/schema'
import { type EventFilters, listRecentEvents } from './list-recent-events'
import { decisionColumns, decisionConditions, decisionMoment, decisionsBefore } from './list-signup-decisions'

/** Rows read per query: memory holds one page, whatever the export's length. */
const PAGE = 500

type Decision = Awaited<ReturnType<typeof readDecisionPage>>[number]
type Exported = { kind: 'event'; row: StoredEvent } | { kind: 'decision'; row: Decision }

/** One visitor's events, newest first. */
async function readVisitorPage(
  db: Database,
  visitorId: string,
  cursor: Cursor | undefined,
  pageSize: number,
) {
  const rows = await selectRows(
    db,
    eventColumns,
    (select) => sql`select ${select} from events where visitor_id = ${visitorId}
      ${cursor ? sql`and (created_at, request_id) < (${cursor.createdAt}::timestamptz, ${cursor.requestId})` : sql``}
      order by created_at desc, request_id desc limit ${pageSize}`,
  )
  return rows.map(toStoredEvent)
}

/** Sign-up decisions matching the console's filters, newest first. */
function readDecisionPage(
  db: Database,
  filters: DecisionFilters,
  cursor: Cursor | undefined,
  pageSize: number,
) {
  return db
    .select(decisionColumns)
    .from(signupDecisions)
    .where(and(...decisionConditions(filters), cursor ? decisionsBefore(cursor) : undefined))
    .orderBy(desc(decisionMoment), desc(signupDecisions.requestId))
    .limit(pageSize)
}

/** The events the console's filters show (its own query), newest first. */
async function readEventPage(
  db: Database,
  filters: EventFilters,
  cursor: Cursor | undefined,
  pageSize: number,
) {
  return (await listRecentEvents({ db, filters, cursor, limit: pageSize })).events
}

async function* records(db: Database, query: ExportQuery, pageSize: number): AsyncGenerator<Exported[]> {
  const { kind: _kind, format: _format, outcome, email, visitorId, ...eventFilters } = query
  if (query.kind === 'decisions') {
    const filters = { outcome, email, site: eventFilters.site }
    const pages = keysetPages((cursor) => readDecisionPage(db, filters, cursor, pageSize), pageSize)
    for await (const page of pages) yield page.map((row) => ({ kind: 'decision', row }))
    return
  }
  const pages = keysetPages(
    (cursor) =>
      query.kind === 'visitor' && visitorId
        ? readVisitorPage(db, visitorId, cursor, pageSize)
        : readEventPage(db, eventFilters, cursor, pageSize),
    pageSize,
  )
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
  'visitor_label',
  'account_label',
  'review',
  'answered_by',
  'answer_outcome',
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
          decision.visitorLabel ?? '',
          decision.accountLabel ?? '',
          decision.review ?? '',
          decision.answer?.requestId ?? '',
          decision.answer?.outcome ?? '',
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
