import 'server-only'
import { sql } from 'drizzle-orm'
import type { IdentifyRequest, IdentifyResponse } from '@/contracts/identify'
import type { StoredEvent } from '@/contracts/server-api'
import { type Database, queryRows } from '../db/client'
import { computeSignals } from '../signals/compute-signals'
import { explainSuspectScore } from '../signals/suspect-score'
import type { VelocityRow } from '../signals/velocity'
import { blockingKeys } from './blocking-keys'
import { scoreConfidence } from './confidence'
import { type Digests, digestComponents } from './digest-components'
import { getIdentitySecret } from './identity-secret'
import { type Candidate, matchVisitor } from './match-visitor'
import { newRequestId, newVisitorId } from './new-id'
import { signVisitorToken, verifyVisitorToken } from './persistent-token'

export interface IdentifyContext {
  ip: string | null
  userAgent: string | null
  /** Token from the HttpOnly cookie; preferred over the agent's stored copy. */
  cookieToken?: string
  now?: Date
}

/** Candidates per blocking key: bounds the work per request however many visitors share a key. */
const CANDIDATES_PER_KEY = 64
const MAX_CANDIDATES = 16

interface CandidateRow {
  id: string
  profile: Digests
  last_seen_at: string | Date
  velocity: VelocityRow
}

/** Events per visitor read for velocity: enough to see a burst, bounded for busy bots. */
const VELOCITY_WINDOW = 1000

/**
 * Identifies the device behind one agent payload and stores the event, in two database round
 * trips: one read (token visitor + blocking-key candidates), one write (a single statement that
 * also queues the site's webhook deliveries, so an acknowledged event is never without them).
 */
export async function identifyVisitor({
  db,
  input,
  context,
}: {
  db: Database
  input: IdentifyRequest
  context: IdentifyContext
}): Promise<IdentifyResponse> {
  const now = context.now ?? new Date()
  const secret = await getIdentitySecret(db)
  const tokenVisitorId =
    verifyVisitorToken(context.cookieToken, secret) ?? verifyVisitorToken(input.storedToken, secret)
  const digests = digestComponents(input.components)
  const keys = blockingKeys(digests)
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
  const [since5m, since1h, since24h] = [ago(300_000), ago(3_600_000), ago(86_400_000)]

  // Round trip 1: the candidates, each with its recent activity (for velocity).
  const rows = await queryRows<CandidateRow>(
    db,
    sql`with hits as (
          select hit.visitor_id, count(*) as hits
          from unnest(${sql.param(keys)}::text[]) as wanted(key)
          cross join lateral (
            select visitor_id from visitor_keys where visitor_keys.key = wanted.key limit ${CANDIDATES_PER_KEY}
          ) as hit
          group by hit.visitor_id order by hits desc limit ${MAX_CANDIDATES})
        select v.id, v.profile, v.last_seen_at, activity.velocity from visitors v
        cross join lateral (
          select json_build_object(
            'events5m', count(*) filter (where recent.created_at > ${since5m}),
            'events1h', count(*) filter (where recent.created_at > ${since1h}),
            'events24h', count(*),
            'ips5m', coalesce(array_agg(distinct recent.ip) filter (where recent.created_at > ${since5m} and recent.ip is not null), '{}'),
            'ips1h', coalesce(array_agg(distinct recent.ip) filter (where recent.created_at > ${since1h} and recent.ip is not null), '{}'),
            'ips24h', coalesce(array_agg(distinct recent.ip) filter (where recent.ip is not null), '{}'),
            'linked24h', coalesce(array_agg(distinct recent.linked_id) filter (where recent.linked_id is not null), '{}')
          ) as velocity
          from (select created_at, ip, linked_id from events
                where events.visitor_id = v.id and events.created_at > ${since24h}
                order by created_at desc limit ${VELOCITY_WINDOW}) as recent
        ) as activity
        where v.id = any(array(select visitor_id from hits) || ${tokenVisitorId ?? null}::text)`,
  )
  const candidates: Candidate[] = rows.map((row) => ({
    visitorId: row.id,
    profile: row.profile,
    lastSeenAt: new Date(row.last_seen_at).getTime(),
  }))
  const match = matchVisitor(digests, candidates, tokenVisitorId)
  const visitorId = match.method === 'new' ? newVisitorId() : match.visitorId
  const previous = match.method === 'new' ? {} : (rows.find((row) => row.id === visitorId)?.profile ?? {})
  const stats = statisticsDelta(previous, digests)
  const confidence = scoreConfidence(match)
  const signals = computeSignals(input.components, {
    ip: context.ip,
    linkedId: input.linkedId,
    velocity: rows.find((row) => row.id === visitorId)?.velocity,
  })
  const suspectScore = explainSuspectScore(signals).score
  const requestId = newRequestId(now)

  const event: StoredEvent = {
    requestId,
    visitorId,
    visitorFound: match.method !== 'new',
    createdAt: now.toISOString(),
    confidence: { score: confidence },
    ip: context.ip,
    userAgent: context.userAgent,
    url: input.url ?? null,
    siteKey: input.siteKey ?? null,
    tag: input.tag ?? null,
    linkedId: input.linkedId ?? null,
    signals,
    suspectScore,
  }
  const webhookPayload = { type: 'identification', event }

  // Round trip 2: visitor, keys, statistics, event and webhook outbox in one statement.
  const [saved] = await queryRows<{ first_seen_at: string | Date; last_seen_at: string | Date }>(
    db,
    sql`with visitor as (
          insert into visitors (id, profile, first_seen_at, last_seen_at, visits)
          values (${visitorId}, ${JSON.stringify(digests)}::jsonb, ${now.toISOString()}, ${now.toISOString()}, 1)
          on conflict (id) do update set profile = excluded.profile, last_seen_at = excluded.last_seen_at,
            visits = visitors.visits + 1
          returning first_seen_at, last_seen_at),
        stale_keys as (
          delete from visitor_keys where visitor_id = ${visitorId} and not (key = any(${sql.param(keys)}::text[]))),
        new_keys as (
          insert into visitor_keys (key, visitor_id)
          select unnest(${sql.param(keys)}::text[]), ${visitorId} on conflict do nothing),
        statistics as (
          insert into component_stats (component, digest, visitors)
          select * from unnest(${sql.param(stats.components)}::text[], ${sql.param(stats.digests)}::text[], ${sql.param(stats.deltas)}::int[])
          on conflict (component, digest) do update set visitors = component_stats.visitors + excluded.visitors),
        outbox as (
          insert into webhook_deliveries (id, webhook_id, event_type, payload)
          select ${requestId} || ':' || w.id, w.id, 'identification', ${JSON.stringify(webhookPayload)}::jsonb
          from webhooks w join sites s on s.id = w.site_id
          where s.public_key = ${input.siteKey ?? null} and w.enabled),
        event as (
          insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, ip,
            user_agent, url, site_key, tag, linked_id, components, signals, suspect_score)
          values (${requestId}, ${visitorId}, ${now.toISOString()}, ${match.method !== 'new'}, ${confidence},
            ${match.method}, ${context.ip}, ${context.userAgent}, ${input.url ?? null}, ${input.siteKey ?? null},
            ${input.tag ? JSON.stringify(input.tag) : null}::jsonb, ${input.linkedId ?? null},
            ${JSON.stringify(input.components)}::jsonb, ${JSON.stringify(signals)}::jsonb, ${suspectScore}))
        select first_seen_at, last_seen_at from visitor`,
  )
  if (!saved) throw new Error('The identification event was not stored.')

  return {
    requestId,
    visitorId,
    visitorFound: match.method !== 'new',
    confidence: { score: confidence },
    firstSeenAt: new Date(saved.first_seen_at).toISOString(),
    lastSeenAt: new Date(saved.last_seen_at).toISOString(),
    signals,
    suspectScore,
    storedToken: signVisitorToken(visitorId, secret),
  }
}

/** Per-visitor value counts move with the visitor's profile: -1 for old values, +1 for new ones. */
function statisticsDelta(previous: Digests, current: Digests) {
  const components: string[] = []
  const digests: string[] = []
  const deltas: number[] = []
  const add = (component: string, digest: string, delta: number) => {
    components.push(component)
    digests.push(digest)
    deltas.push(delta)
  }
  for (const [component, digest] of Object.entries(current)) {
    const before = previous[component]
    if (before === digest) continue
    if (before !== undefined) add(component, before, -1)
    add(component, digest, 1)
  }
  for (const [component, digest] of Object.entries(previous)) {
    if (!(component in current)) add(component, digest, -1)
  }
  return { components, digests, deltas }
}
