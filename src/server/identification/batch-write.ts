import 'server-only'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { MatchEvidence } from '@/contracts/device'
import { type Database, type InputColumns, type RowOf, selectRows, unnestRows } from '../db/client'
import { ipDetailsOf, packSignals } from '../db/packed-signals'
import { events, flagsOf, visitors } from '../db/schema'
import { type BatchDecision, byText } from './batch-decision'
import { DEFAULT_WORKSPACE } from './blocking-keys'
import {
  type SnapshotOfEvent,
  SnapshotVanished,
  snapshotOfEvent,
  snapshotWrites,
  VANISHED_SNAPSHOTS,
} from './component-snapshots'
import { MODEL_VERSION } from './model-version'
import { networkOf } from './network-of'

// The statement's `visitor` step: the stored visitors, as identify-visitor.ts reads them.
const visitor = alias(visitors, 'visitor')
const savedVisitor = { id: visitor.id, firstSeenAt: visitor.firstSeenAt, lastSeenAt: visitor.lastSeenAt }
export type SavedVisitor = RowOf<typeof savedVisitor>

/**
 * A visitor the batch read was deleted before it wrote (retention, forget): its upsert would make it
 * again with only the change's statistics, the rest already taken off. Nothing was stored, and the
 * batch runs again (now without that visitor).
 */
export class VisitorVanished extends Error {
  constructor() {
    super('a visitor was deleted while a write was storing its visit')
  }
}

type Written = BatchDecision['written'][number]
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

/**
 * Evidence as stored: bits to a thousandth, which is all an explanation needs (the console shows two
 * decimals), and what lets a facet's bits take two bytes (db/packed-evidence.ts).
 */
function storedEvidence(evidence: MatchEvidence): MatchEvidence {
  const round = (bits: number) => Math.round(bits * 1e3) / 1e3
  const { bits, twinBits, contextBits, recencyBits, jointBits, facets } = evidence
  // In the order match-visitor.ts writes them, as the dictionary holds them.
  return {
    bits: round(bits),
    twinBits: round(twinBits),
    facets: facets.map((facet) => ({ ...facet, bits: round(facet.bits) })),
    ...(jointBits !== undefined && { jointBits: round(jointBits) }),
    contextBits: round(contextBits),
    ...(recencyBits !== undefined && { recencyBits: round(recencyBits) }),
  }
}

/** The network details of an event's signals, worked out once for the three columns that use them. */
const eventDetails = new WeakMap<object, ReturnType<typeof ipDetailsOf>>()
function detailsOf({ event }: Written): ReturnType<typeof ipDetailsOf> {
  if (!eventDetails.has(event)) eventDetails.set(event, ipDetailsOf(event.signals))
  return eventDetails.get(event) ?? null
}

/** What a batch stores of each visitor (the input of the visitors upsert). */
const visitorColumns: InputColumns<Written> = {
  id: ['text', ({ event }) => event.visitorId],
  profile: ['jsonb', ({ profile }) => JSON.stringify(profile.digests)],
  parts: ['jsonb', ({ profile }) => JSON.stringify(profile.parts)],
  previous: ['jsonb', ({ previous }) => JSON.stringify(previous)],
  volatility: ['jsonb', ({ volatility }) => JSON.stringify(volatility)],
  network: ['text', ({ event }) => (event.ip ? networkOf(event.ip) : null)],
  workspace: ['text', ({ job }) => job.context.workspace ?? DEFAULT_WORKSPACE],
  counted: ['boolean', ({ counted }) => counted],
  seen_at: ['timestamptz', ({ event }) => event.createdAt],
}

/** An event row, as the events table stores it. */
const eventColumns: InputColumns<Written> = {
  request_id: ['text', ({ event }) => event.requestId],
  visitor_id: ['text', ({ event }) => event.visitorId],
  created_at: ['timestamptz', ({ event }) => event.createdAt],
  visitor_found: ['boolean', ({ event }) => event.visitorFound],
  confidence: ['real', ({ event }) => event.confidence.score],
  method: ['text', ({ match }) => match.method],
  evidence: [
    'bytea',
    ({ match }) => (match.evidence ? events.evidence.mapToDriverValue(storedEvidence(match.evidence)) : null),
  ],
  comeback: ['boolean', ({ comeback }) => comeback],
  browser_id: ['text', ({ browserId }) => browserId],
  ip: ['text', ({ event }) => event.ip],
  network: ['text', ({ event }) => (event.ip ? networkOf(event.ip) : null)],
  asn: ['int', ({ place }) => place.asn],
  country: ['text', ({ place }) => place.country],
  user_agent: [
    'bytea',
    ({ event }) => (event.userAgent === null ? null : events.userAgent.mapToDriverValue(event.userAgent)),
  ],
  url: ['text', ({ event }) => event.url],
  site_key: ['text', ({ event }) => event.siteKey],
  tag: ['jsonb', ({ event }) => json(event.tag)],
  linked_id: ['text', ({ event }) => event.linkedId],
  signals: [
    'bytea',
    (row) =>
      packSignals(row.event.signals, {
        ip: row.event.ip,
        network: row.event.ip ? networkOf(row.event.ip) : null,
        asn: row.place.asn,
        country: row.place.country,
        details: detailsOf(row)?.details ?? null,
      }),
  ],
  ip_details: ['bytea', (row) => detailsOf(row)?.digest ?? null],
  flags: ['int', ({ event }) => flagsOf(event.signals)],
  suspect_score: ['int', ({ event }) => event.suspectScore],
}

/**
 * Stores a batch's decision in one statement: visitors, their blocking keys, value statistics,
 * component snapshots and network details (each once), events and the sites' webhook outbox rows (so an acknowledged event is
 * never without its deliveries). Returns each stored visitor's first and last visit.
 */
export async function writeBatch(tx: Database, { written, changes }: BatchDecision): Promise<SavedVisitor[]> {
  const visitors = written.map(({ event }) => event.visitorId)
  const keyPairs = written
    .flatMap(({ event, keys }) => keys.map((key) => [key, event.visitorId] as const))
    .sort(([a], [b]) => byText(a, b))
  const visitorInput = unnestRows(written, visitorColumns, 'input')
  const snapshots = new Map(written.map((row) => [row, snapshotOfEvent(row.job.input.components)]))
  const snapshotOf = (row: Written) => snapshots.get(row) as SnapshotOfEvent
  const eventInput = unnestRows(
    written,
    {
      ...eventColumns,
      snapshot: ['text', (row) => snapshotOf(row).digest],
      stored: ['bytea', (row) => snapshotOf(row).stored],
      durations: ['bytea', (row) => snapshotOf(row).durations],
      details: ['jsonb', (row) => json(detailsOf(row)?.details)],
      webhook_payload: ['jsonb', ({ event }) => JSON.stringify({ type: 'identification', event })],
    },
    'input',
  )
  const eventNames = sql.raw(Object.keys(eventColumns).join(', '))
  const keyInput = unnestRows(
    keyPairs,
    { visitor_id: ['text', ([, visitor]) => visitor], key: ['text', ([key]) => key] },
    'wanted',
  )
  const changeInput = unnestRows(
    changes,
    {
      component: ['text', ({ component }) => component],
      digest: ['text', ({ digest }) => digest],
      visitors: ['int', ({ delta }) => delta],
      all_visitors: ['int', ({ all }) => all],
    },
    'change',
  )

  // Round trip 2: visitors, keys, statistics, events and webhook outbox in one statement.
  const saved = await selectRows(
    tx,
    { ...savedVisitor, inserted: sql<boolean>`inserted`, vanished: sql<number>`${VANISHED_SNAPSHOTS}` },
    (select) => sql`with visitor as (
          insert into visitors (id, profile, parts, previous, volatility, model_version, network, workspace, counted, first_seen_at, last_seen_at, visits)
          select id, profile, parts, previous, volatility, ${MODEL_VERSION}, network, workspace, counted, seen_at, seen_at, 1
          from ${visitorInput}
          on conflict (id) do update set profile = excluded.profile, parts = excluded.parts,
            previous = excluded.previous, volatility = excluded.volatility, model_version = excluded.model_version,
            last_seen_at = greatest(visitors.last_seen_at, excluded.last_seen_at), visits = visitors.visits + 1
          returning id, first_seen_at, last_seen_at, xmax = 0 as inserted),
        wanted_keys as (select * from ${keyInput}),
        stale_keys as (
          delete from visitor_keys where visitor_id = any(${sql.param(visitors)}::text[])
            and (visitor_id, key) not in (select visitor_id, key from wanted_keys)),
        new_keys as (
          insert into visitor_keys (key, visitor_id) select key, visitor_id from wanted_keys on conflict do nothing),
        statistics as (
          insert into component_stats (component, digest, visitors, all_visitors)
          select * from ${changeInput}
          on conflict (component, digest) do update set visitors = component_stats.visitors + excluded.visitors,
            all_visitors = component_stats.all_visitors + excluded.all_visitors),
        new_events as (select * from ${eventInput}),
        -- Sorted, so two batches wait on each other's new details in one order, never in a cycle.
        new_details as (
          insert into ip_details (digest, details)
          select distinct on (ip_details) ip_details, details from new_events
          where ip_details is not null order by ip_details
          on conflict do nothing),
        ${snapshotWrites(sql`(select snapshot::uuid as digest, stored, created_at from new_events) as written`)},
        outbox as (
          insert into webhook_deliveries (id, webhook_id, event_type, payload)
          select e.request_id || ':' || w.id, w.id, 'identification', e.webhook_payload
          from new_events e join sites s on s.public_key = e.site_key join webhooks w on w.site_id = s.id
          where w.enabled and w.deleted_at is null and 'identification' = any(w.events)),
        event as (
          insert into events (${eventNames}, snapshot, durations)
          select ${eventNames}, snapshot::uuid, durations from new_events)
        select ${select} from visitor`,
  )
  if (saved.some((row) => row.vanished > 0)) throw new SnapshotVanished()
  const stored = new Set(written.filter((row) => row.stored).map(({ event }) => event.visitorId))
  if (saved.some((row) => row.inserted && stored.has(row.id))) throw new VisitorVanished()
  return saved.map(({ vanished: _vanished, inserted: _inserted, ...visitor }) => visitor)
}
