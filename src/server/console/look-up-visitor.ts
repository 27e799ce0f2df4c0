import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import { RECENT_EVENTS_READ, type SubjectLabel, type VisitorPanel } from '@/contracts/console'
import { normaliseEmail } from '@/contracts/signup'
import { eventSiteName } from '../api/event-rows'
import { type Database, selectRows, withGenericPlans } from '../db/client'
import { eventSignals } from '../db/packed-signals'
import { accounts, events, visitors } from '../db/schema'
import { visitColumns } from '../identification/read-device-report'
import { explainSuspectScore } from '../signals/suspect-score'

/** Finds the visitor behind a visitor ID, request ID, account email, linked ID or IP address. */
export async function findVisitorId({
  db,
  query,
}: {
  db: Database
  query: string
}): Promise<string | undefined> {
  // A visitor ID first, by the visitors' key alone: the other look-ups read the events' every day
  // table, and planning a statement over them costs more than the answer (16–23 ms at 98 days).
  const [visitor] = await selectRows(
    db,
    { visitorId: visitors.id },
    (select) => sql`select ${select} from visitors where id = ${query}`,
    { prepared: true },
  )
  if (visitor) return visitor.visitorId
  // A generic plan from the first call: each of a connection's first five would weigh every day's
  // table for the parameters given (client.ts), which costs more than reading the answer.
  const [row] = await withGenericPlans(db, (tx) =>
    selectRows(
      tx,
      { visitorId: sql<string>`visitor_id` },
      (select) => sql`select ${select} from (
          select visitor_id, 2 as rank, created_at as at from events where request_id = ${query}
          union all (select visitor_id, 3, created_at from accounts
                     where email_normalised = ${normaliseEmail(query)} and visitor_id is not null limit 1)
          union all (select visitor_id, 4, created_at from events where linked_id = ${query} order by created_at desc limit 1)
          union all (select visitor_id, 5, created_at from events where ip = ${query} order by created_at desc limit 1)
        ) as found order by rank, at desc limit 1`,
      { prepared: true },
    ),
  )
  return row?.visitorId
}

/** A label (`l`) of the table and condition given, as the console shows it: what, by whom, when; null for none. */
function labelOf(from: SQL) {
  return sql<SubjectLabel | null>`(select json_build_object('label', l.label, 'operator', l.operator,
    'labelledAt', to_char(l.labelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from ${from})`
}

/** Everything the console shows about one visitor. */
export async function readVisitorPanel({
  db,
  visitorId,
  site,
}: {
  db: Database
  visitorId: string
  /** One site's public key: the history lists that site's events alone. */
  site?: string
}): Promise<VisitorPanel | undefined> {
  // Generic plans from the first call (see findVisitorId).
  return withGenericPlans(db, (tx) => readPanel(tx, visitorId, site))
}

async function readPanel(db: Database, visitorId: string, site: string | undefined) {
  const [visitor] = await selectRows(
    db,
    { firstSeenAt: visitors.firstSeenAt, lastSeenAt: visitors.lastSeenAt, visits: visitors.visits },
    (select) => sql`select ${select} from visitors where id = ${visitorId}`,
  )
  if (!visitor) return undefined
  const latest = await selectRows(
    db,
    {
      ...visitColumns,
      userAgent: events.userAgent,
      siteName: eventSiteName,
      suspectScore: events.suspectScore,
      signals: eventSignals(),
    },
    (select) =>
      sql`select ${select} from events where visitor_id = ${visitorId}
        ${site === undefined ? sql`` : sql`and site_key = ${site}`} order by created_at desc limit 50`,
    { prepared: true },
  )
  // Addresses and linked IDs come from the visitor's latest events alone, read once for both: a
  // scraper's thousands of visits would otherwise be read from disk at every look-up (seconds at
  // 10 M events).
  const used = await selectRows(
    db,
    { kind: sql<'ip' | 'linked'>`kind`, value: sql<string>`value`, events: sql<number>`events` },
    (
      select,
    ) => sql`with recent as (select ip, linked_id, created_at from events where visitor_id = ${visitorId}
        ${site === undefined ? sql`` : sql`and site_key = ${site}`}
        order by created_at desc limit ${RECENT_EVENTS_READ})
      select ${select} from (
        (select 'ip' as kind, ip as value, count(*)::int as events,
            row_number() over (order by count(*) desc, ip) as place
          from recent where ip is not null group by ip order by place limit 20)
        union all
        (select 'linked', linked_id, count(*)::int, row_number() over (order by max(created_at) desc, linked_id)
          from recent where linked_id is not null group by linked_id order by 4 limit 20)
      ) as used order by kind, place`,
    { prepared: true },
  )
  const ips = used.flatMap((row) => (row.kind === 'ip' ? [{ ip: row.value, events: row.events }] : []))
  const linkedIds = used.flatMap((row) => (row.kind === 'linked' ? [row.value] : []))
  const accountRows = await selectRows(
    db,
    {
      id: accounts.id,
      email: accounts.email,
      name: accounts.name,
      createdAt: accounts.createdAt,
      label: labelOf(sql`account_labels l where l.account_id = accounts.id`),
    },
    (select) =>
      sql`select ${select} from accounts where visitor_id = ${visitorId} order by created_at desc limit 20`,
  )
  const [label] = await selectRows(
    db,
    { label: labelOf(sql`visitor_labels l where l.visitor_id = ${visitorId}`) },
    (select) => sql`select ${select}`,
  )
  return {
    visitorId,
    ...visitor,
    label: label?.label ?? null,
    ips,
    linkedIds,
    accounts: accountRows,
    events: latest.map((event) => ({
      ...event,
      scoreBreakdown: explainSuspectScore(event.signals).contributions,
    })),
  }
}
