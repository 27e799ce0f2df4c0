import 'server-only'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { type Database, type RowOf, selectRows } from '../db/client'
import { visitors } from '../db/schema'
import { type BatchDecision, byText } from './batch-decision'
import { DEFAULT_WORKSPACE } from './blocking-keys'
import { MODEL_VERSION } from './model-version'
import { networkOf } from './network-of'

// The statement's `visitor` step: the stored visitors, as identify-visitor.ts reads them.
const visitor = alias(visitors, 'visitor')
const savedVisitor = { id: visitor.id, firstSeenAt: visitor.firstSeenAt, lastSeenAt: visitor.lastSeenAt }
export type SavedVisitor = RowOf<typeof savedVisitor>

/**
 * Stores a batch's decision in one statement: visitors, their blocking keys, value statistics,
 * events and the sites' webhook outbox rows (so an acknowledged event is
 * never without its deliveries). Returns each stored visitor's first and last visit.
 */
export function writeBatch(tx: Database, { written, changes }: BatchDecision): Promise<SavedVisitor[]> {
  const visitors = written.map(({ event }) => event.visitorId)
  const keyPairs = written
    .flatMap(({ event, keys }) => keys.map((key) => [key, event.visitorId] as const))
    .sort(([a], [b]) => byText(a, b))
  const column = <Value>(pick: (entry: (typeof written)[number]) => Value) => sql.param(written.map(pick))
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

  // Round trip 2: visitors, keys, statistics, events and webhook outbox in one statement.
  return selectRows(
    tx,
    savedVisitor,
    (select) => sql`with visitor as (
          insert into visitors (id, profile, parts, previous, volatility, model_version, network, workspace, counted, first_seen_at, last_seen_at, visits)
          select id, profile, parts, previous, volatility, ${MODEL_VERSION}, network, workspace, counted, seen_at, seen_at, 1
          from unnest(${sql.param(visitors)}::text[], ${column(({ profile }) => JSON.stringify(profile.digests))}::jsonb[],
            ${column(({ profile }) => JSON.stringify(profile.parts))}::jsonb[],
            ${column(({ previous }) => JSON.stringify(previous))}::jsonb[],
            ${column(({ volatility }) => JSON.stringify(volatility))}::jsonb[],
            ${column(({ event }) => (event.ip ? networkOf(event.ip) : null))}::text[],
            ${column(({ job }) => job.context.workspace ?? DEFAULT_WORKSPACE)}::text[],
            ${column(({ counted }) => counted)}::boolean[],
            ${column(({ event }) => event.createdAt)}::timestamptz[]) as input(id, profile, parts, previous, volatility, network, workspace, counted, seen_at)
          on conflict (id) do update set profile = excluded.profile, parts = excluded.parts,
            previous = excluded.previous, volatility = excluded.volatility, model_version = excluded.model_version,
            last_seen_at = excluded.last_seen_at, visits = visitors.visits + 1
          returning id, first_seen_at, last_seen_at),
        wanted_keys as (
          select * from unnest(${sql.param(keyPairs.map(([, visitor]) => visitor))}::text[],
            ${sql.param(keyPairs.map(([key]) => key))}::text[]) as wanted(visitor_id, key)),
        stale_keys as (
          delete from visitor_keys where visitor_id = any(${sql.param(visitors)}::text[])
            and (visitor_id, key) not in (select visitor_id, key from wanted_keys)),
        new_keys as (
          insert into visitor_keys (key, visitor_id) select key, visitor_id from wanted_keys on conflict do nothing),
        statistics as (
          insert into component_stats (component, digest, visitors)
          select * from unnest(${sql.param(changes.map(({ component }) => component))}::text[],
            ${sql.param(changes.map(({ digest }) => digest))}::text[], ${sql.param(changes.map(({ delta }) => delta))}::int[])
          on conflict (component, digest) do update set visitors = component_stats.visitors + excluded.visitors),
        new_events as (
          select * from unnest(
            ${column(({ event }) => event.requestId)}::text[], ${sql.param(visitors)}::text[],
            ${column(({ event }) => event.createdAt)}::timestamptz[], ${column(({ event }) => event.visitorFound)}::boolean[],
            ${column(({ event }) => event.confidence.score)}::real[], ${column(({ match }) => match.method)}::text[],
            ${column(({ match }) => json(match.evidence))}::jsonb[], ${column(({ comeback }) => comeback)}::boolean[],
            ${column(({ browserId }) => browserId)}::text[],
            ${column(({ event }) => event.ip)}::text[], ${column(({ event }) => event.userAgent)}::text[],
            ${column(({ event }) => event.url)}::text[], ${column(({ event }) => event.siteKey)}::text[],
            ${column(({ event }) => json(event.tag))}::jsonb[], ${column(({ event }) => event.linkedId)}::text[],
            ${column(({ job }) => JSON.stringify(job.input.components))}::jsonb[],
            ${column(({ event }) => JSON.stringify(event.signals))}::jsonb[], ${column(({ event }) => event.suspectScore)}::int[],
            ${column(({ event }) => JSON.stringify({ type: 'identification', event }))}::jsonb[])
          as input(request_id, visitor_id, created_at, visitor_found, confidence, method, evidence, comeback, browser_id, ip, user_agent,
            url, site_key, tag, linked_id, components, signals, suspect_score, webhook_payload)),
        outbox as (
          insert into webhook_deliveries (id, webhook_id, event_type, payload)
          select e.request_id || ':' || w.id, w.id, 'identification', e.webhook_payload
          from new_events e join sites s on s.public_key = e.site_key join webhooks w on w.site_id = s.id
          where w.enabled),
        event as (
          insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, evidence,
            comeback, browser_id, ip, user_agent, url, site_key, tag, linked_id, components, signals, suspect_score)
          select request_id, visitor_id, created_at, visitor_found, confidence, method, evidence, comeback, browser_id, ip,
            user_agent, url, site_key, tag, linked_id, components, signals, suspect_score from new_events)
        select ${select} from visitor`,
  )
}
