import 'server-only'
import { sql } from 'drizzle-orm'
import type { IdentifyRequest, IdentifyResponse } from '@/contracts/identify'
import type { StoredEvent } from '@/contracts/server-api'
import { type Database, queryRows } from '../db/client'
import { HttpError } from '../http/errors'
import { processWide } from '../process-wide'
import { computeSignals } from '../signals/compute-signals'
import { explainSuspectScore } from '../signals/suspect-score'
import type { VelocityRow } from '../signals/velocity'
import { type BatchOutcome, createBatchQueue } from './batch-queue'
import { blockingKeys } from './blocking-keys'
import type { FacetName } from './component-model'
import { scoreConfidence } from './confidence'
import { type Digests, type FingerprintProfile, profileComponents } from './fingerprint-profile'
import { getIdentitySecret } from './identity-secret'
import { type Candidate, type Match, matchVisitor } from './match-visitor'
import { newRequestId, newVisitorId } from './new-id'
import { newBrowserId, signVisitorToken, verifyVisitorToken } from './persistent-token'
import { applyCommittedCounts, readBatchContext } from './population'
import { compareFacets, type StoredProfile } from './score-evidence'

export interface IdentifyContext {
  ip: string | null
  userAgent: string | null
  /** Token from the HttpOnly cookie; preferred over the agent's stored copy. */
  cookieToken?: string
}

/** Candidates per blocking key: bounds the work per request however many visitors share a key. */
const CANDIDATES_PER_KEY = 64
const MAX_CANDIDATES = 16
/** Earlier values kept per changed component, so a device that changes back is still itself. */
const PREVIOUS_VALUES = 2

/** Events per visitor read for velocity: enough to see a burst, bounded for busy bots. */
const VELOCITY_WINDOW = 1000

interface IdentifyJob {
  input: IdentifyRequest
  context: IdentifyContext
}

/**
 * Identifies the device behind one agent payload and stores the event, in two database round
 * trips: one read (token visitor + blocking-key candidates), one write (a single statement that
 * also queues the site's webhook deliveries, so an acknowledged event is never without them).
 *
 * Under load, requests share these two statements in batches (see batch-queue.ts). Nobody is
 * answered before their batch's write has committed.
 */
export function identifyVisitor({
  db,
  input,
  context,
}: {
  db: Database
  input: IdentifyRequest
  context: IdentifyContext
}): Promise<IdentifyResponse> {
  return queueFor(db).submit({ input, context })
}

type IdentifyQueue = ReturnType<typeof createBatchQueue<IdentifyJob, IdentifyResponse>>

function queueFor(db: Database): IdentifyQueue {
  // One per process, like the database: two queues on one database would run batches that miss
  // each other's writes.
  const queues = processWide('identifyQueues', () => new WeakMap<Database, IdentifyQueue>())
  let queue = queues.get(db)
  if (!queue) {
    queue = createBatchQueue<IdentifyJob, IdentifyResponse>((jobs) => identifyBatch(db, jobs), {
      maxBatch: 64,
      maxQueued: 5_000,
      maxBlockedPerKey: 100,
      tooBusy: () =>
        new HttpError('service_unavailable', 'Too many identifications are waiting; try again shortly.'),
      tooFast: () =>
        new HttpError(
          'rate_limited',
          'This device sends identifications faster than they can be stored; slow down.',
        ),
    })
    queues.set(db, queue)
  }
  return queue
}

interface CandidateRow {
  id: string
  profile: Digests
  parts: Record<string, string>
  previous: Record<string, string[]>
  visits: number
  last_seen_at: string | Date
  velocity: VelocityRow
  jobs: number[]
}

/**
 * Identifies a batch of requests: one read for every request's candidates, matching in memory,
 * one write for every event. Answers in request order. A request whose visitor, or whose exact
 * device (the same blocking keys: the same device's first visit twice), an earlier request of
 * the batch already claimed is answered with `blockedBy`: it runs again once that one is stored,
 * as if the two had come one after the other.
 */
async function identifyBatch(db: Database, jobs: IdentifyJob[]): Promise<BatchOutcome<IdentifyResponse>[]> {
  const secret = await getIdentitySecret(db)
  const now = new Date()
  const prepared = jobs.map(({ input, context }) => {
    const profile = profileComponents(input.components)
    return {
      input,
      context,
      profile,
      keys: blockingKeys(profile.digests),
      token: verifyVisitorToken(context.cookieToken, secret) ?? verifyVisitorToken(input.storedToken, secret),
    }
  })
  // One transaction per batch. Its first statement locks each request's exact device (sorted, so
  // batches never deadlock), so two app servers sharing one PostgreSQL cannot both store the same
  // new device as a new visitor: the second waits for the first's commit, then finds it.
  const { written, changes, saved, outcomes } = await db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(lock) from (
            select distinct hashtextextended(device, 0) as lock from unnest(${sql.param(prepared.map((job) => job.keys.join(' ')))}::text[]) as device
            order by lock) as locks`,
    )
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
    const [since5m, since1h, since24h] = [ago(300_000), ago(3_600_000), ago(86_400_000)]
    const keyJobs = prepared.flatMap((job, index) => job.keys.map(() => index))
    const keys = prepared.flatMap((job) => job.keys)
    const tokenJobs = prepared.flatMap((job, index) => (job.token ? [index] : []))
    const tokenIds = prepared.flatMap((job) => (job.token ? [job.token.visitorId] : []))

    // Round trip 1: every request's candidates, each with its recent activity (for velocity).
    const rows = await queryRows<CandidateRow>(
      tx,
      sql`with hits as (
            select wanted.job, hit.visitor_id, count(*) as hits
            from unnest(${sql.param(keyJobs)}::int[], ${sql.param(keys)}::text[]) as wanted(job, key)
            cross join lateral (
              select visitor_id from visitor_keys where visitor_keys.key = wanted.key limit ${CANDIDATES_PER_KEY}
            ) as hit
            group by wanted.job, hit.visitor_id),
          ranked as (
            select job, visitor_id, row_number() over (partition by job order by hits desc) as rank from hits),
          picked as (
            select job, visitor_id from ranked where rank <= ${MAX_CANDIDATES}
            union
            select * from unnest(${sql.param(tokenJobs)}::int[], ${sql.param(tokenIds)}::text[]) as token(job, visitor_id)),
          wanted_visitors as (
            select visitor_id, array_agg(job) as jobs from picked group by visitor_id)
          select v.id, v.profile, v.parts, v.previous, v.visits, v.last_seen_at, activity.velocity, wanted_visitors.jobs
          from visitors v
          join wanted_visitors on wanted_visitors.visitor_id = v.id
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
          ) as activity`,
    )

    const { population, sharers } = await readBatchContext(
      tx,
      prepared.flatMap((job) =>
        Object.entries(job.profile.digests).map(([component, digest]) => ({ component, digest })),
      ),
      [...new Set(prepared.flatMap((job) => (job.context.ip ? [job.context.ip] : [])))],
      db,
    )

    const outcomes: BatchOutcome<IdentifyResponse>[] = []
    const claimedVisitors = new Set<string>()
    const claimedDevices = new Map<string, string>()
    const stats = new Map<string, number>()
    const learned = new Map<FacetName, { observed: number; changed: number; close: number }>()
    const written: {
      index: number
      event: StoredEvent
      job: (typeof prepared)[number]
      match: Match
      previous: Record<string, string[]>
      browserId: string
    }[] = []
    prepared.forEach((job, index) => {
      const mine = rows.filter((row) => row.jobs.includes(index))
      const candidates: Candidate[] = mine.map((row) => ({
        visitorId: row.id,
        profile: storedProfile(row),
        lastSeenAt: new Date(row.last_seen_at).getTime(),
        visits: row.visits,
        recentIps: row.velocity.ips24h,
      }))
      const match = matchVisitor({
        current: job.profile,
        candidates,
        tokenVisitorId: job.token?.visitorId,
        population,
        context: { ip: job.context.ip, sharers: job.context.ip ? (sharers.get(job.context.ip) ?? 0) : 0 },
      })
      const visitorId = match.method === 'new' ? newVisitorId() : match.visitorId
      const device = job.keys.join(' ')
      const blockedBy = claimedVisitors.has(visitorId) ? visitorId : claimedDevices.get(device)
      if (blockedBy) {
        outcomes[index] = { blockedBy }
        return
      }
      claimedVisitors.add(visitorId)
      claimedDevices.set(device, visitorId)
      const row = match.method === 'new' ? undefined : mine.find((candidate) => candidate.id === visitorId)
      const stored = row ? storedProfile(row) : undefined
      addStatistics(stats, stored?.digests ?? {}, job.profile.digests)
      // Revisits the signed token confirms teach how often each facet changes for one device.
      if (match.method === 'token' && stored) learnChanges(learned, job.profile, stored)
      const confidence = scoreConfidence(match)
      const signals = computeSignals(job.input.components, {
        ip: job.context.ip,
        linkedId: job.input.linkedId,
        velocity: row?.velocity,
      })
      const event: StoredEvent = {
        requestId: newRequestId(now),
        visitorId,
        visitorFound: match.method !== 'new',
        createdAt: now.toISOString(),
        confidence: { score: confidence },
        ip: job.context.ip,
        userAgent: job.context.userAgent,
        url: job.input.url ?? null,
        siteKey: job.input.siteKey ?? null,
        tag: job.input.tag ?? null,
        linkedId: job.input.linkedId ?? null,
        signals,
        suspectScore: explainSuspectScore(signals).score,
      }
      written.push({
        index,
        event,
        job,
        match,
        previous: stored ? followPrevious(stored, job.profile) : {},
        // The browser keeps its own ID whoever it turns out to be; a browser without one gets a new one.
        browserId: job.token?.browserId ?? newBrowserId(),
      })
    })

    // Rows are written in a fixed order (visitor ID, key, component), so app servers sharing one
    // PostgreSQL lock them in the same order and never deadlock each other.
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    written.sort((a, b) => byText(a.event.visitorId, b.event.visitorId))
    const visitors = written.map(({ event }) => event.visitorId)
    const keyPairs = written
      .flatMap(({ event, job }) => job.keys.map((key) => [key, event.visitorId] as const))
      .sort(([a], [b]) => byText(a, b))
    const column = <Value>(pick: (entry: (typeof written)[number]) => Value) => sql.param(written.map(pick))
    const changes = [...stats].filter(([, delta]) => delta !== 0).sort(([a], [b]) => byText(a, b))
    const facetsLearned = [...learned].sort(([a], [b]) => byText(a, b))
    const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

    // Round trip 2: visitors, keys, statistics, events and webhook outbox in one statement.
    const saved = await queryRows<{ id: string; first_seen_at: string | Date; last_seen_at: string | Date }>(
      tx,
      sql`with visitor as (
            insert into visitors (id, profile, parts, previous, first_seen_at, last_seen_at, visits)
            select id, profile, parts, previous, seen_at, seen_at, 1
            from unnest(${sql.param(visitors)}::text[], ${column(({ job }) => JSON.stringify(job.profile.digests))}::jsonb[],
              ${column(({ job }) => JSON.stringify(job.profile.parts))}::jsonb[],
              ${column(({ previous }) => JSON.stringify(previous))}::jsonb[],
              ${column(({ event }) => event.createdAt)}::timestamptz[]) as input(id, profile, parts, previous, seen_at)
            on conflict (id) do update set profile = excluded.profile, parts = excluded.parts,
              previous = excluded.previous, last_seen_at = excluded.last_seen_at, visits = visitors.visits + 1
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
            select * from unnest(${sql.param(changes.map(([key]) => key.split('\u0000')[0]))}::text[],
              ${sql.param(changes.map(([key]) => key.split('\u0000')[1]))}::text[], ${sql.param(changes.map(([, delta]) => delta))}::int[])
            on conflict (component, digest) do update set visitors = component_stats.visitors + excluded.visitors),
          learned as (
            insert into facet_changes (facet, observed, changed, close)
            select * from unnest(${sql.param(facetsLearned.map(([facet]) => facet))}::text[],
              ${sql.param(facetsLearned.map(([, counts]) => counts.observed))}::int[],
              ${sql.param(facetsLearned.map(([, counts]) => counts.changed))}::int[],
              ${sql.param(facetsLearned.map(([, counts]) => counts.close))}::int[])
            on conflict (facet) do update set observed = facet_changes.observed + excluded.observed,
              changed = facet_changes.changed + excluded.changed, close = facet_changes.close + excluded.close),
          new_events as (
            select * from unnest(
              ${column(({ event }) => event.requestId)}::text[], ${sql.param(visitors)}::text[],
              ${column(({ event }) => event.createdAt)}::timestamptz[], ${column(({ event }) => event.visitorFound)}::boolean[],
              ${column(({ event }) => event.confidence.score)}::real[], ${column(({ match }) => match.method)}::text[],
              ${column(({ match }) => json(match.evidence))}::jsonb[], ${column(({ browserId }) => browserId)}::text[],
              ${column(({ event }) => event.ip)}::text[], ${column(({ event }) => event.userAgent)}::text[],
              ${column(({ event }) => event.url)}::text[], ${column(({ event }) => event.siteKey)}::text[],
              ${column(({ event }) => json(event.tag))}::jsonb[], ${column(({ event }) => event.linkedId)}::text[],
              ${column(({ job }) => JSON.stringify(job.input.components))}::jsonb[],
              ${column(({ event }) => JSON.stringify(event.signals))}::jsonb[], ${column(({ event }) => event.suspectScore)}::int[],
              ${column(({ event }) => JSON.stringify({ type: 'identification', event }))}::jsonb[])
            as input(request_id, visitor_id, created_at, visitor_found, confidence, method, evidence, browser_id, ip, user_agent,
              url, site_key, tag, linked_id, components, signals, suspect_score, webhook_payload)),
          outbox as (
            insert into webhook_deliveries (id, webhook_id, event_type, payload)
            select e.request_id || ':' || w.id, w.id, 'identification', e.webhook_payload
            from new_events e join sites s on s.public_key = e.site_key join webhooks w on w.site_id = s.id
            where w.enabled),
          event as (
            insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, evidence,
              browser_id, ip, user_agent, url, site_key, tag, linked_id, components, signals, suspect_score)
            select request_id, visitor_id, created_at, visitor_found, confidence, method, evidence, browser_id, ip,
              user_agent, url, site_key, tag, linked_id, components, signals, suspect_score from new_events)
          select id, first_seen_at, last_seen_at from visitor`,
    )
    return { written, changes, saved, outcomes }
  })

  applyCommittedCounts(
    db,
    changes.map(([key, delta]) => {
      const [component = '', digest = ''] = key.split('\u0000')
      return { component, digest, delta }
    }),
    written.filter(({ match }) => match.method === 'new').length,
  )
  for (const { index, event, browserId } of written) {
    // The write has committed: from here on nothing may fail, or a retry would store it twice.
    const visitor = saved.find((row) => row.id === event.visitorId)
    outcomes[index] = {
      result: {
        requestId: event.requestId,
        visitorId: event.visitorId,
        visitorFound: event.visitorFound,
        confidence: event.confidence,
        firstSeenAt: new Date(visitor?.first_seen_at ?? event.createdAt).toISOString(),
        lastSeenAt: new Date(visitor?.last_seen_at ?? event.createdAt).toISOString(),
        signals: event.signals,
        suspectScore: event.suspectScore,
        storedToken: signVisitorToken({ visitorId: event.visitorId, browserId }, secret),
      },
    }
  }
  return outcomes
}

/**
 * Per-visitor value counts move with the visitor's profile: -1 for old values, +1 for new ones,
 * summed over the batch by `component\u0000digest`.
 */
function addStatistics(totals: Map<string, number>, previous: Digests, current: Digests) {
  const add = (component: string, digest: string, delta: number) => {
    const key = `${component}\u0000${digest}`
    totals.set(key, (totals.get(key) ?? 0) + delta)
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
}

function storedProfile(row: CandidateRow): StoredProfile {
  return { digests: row.profile, parts: row.parts ?? {}, previous: row.previous ?? {} }
}

/** The earlier values to keep: for each component that changed, its last value first. */
function followPrevious(stored: StoredProfile, current: FingerprintProfile): Record<string, string[]> {
  const previous: Record<string, string[]> = {}
  for (const [name, digest] of Object.entries(current.digests)) {
    const before = stored.digests[name]
    const kept =
      before && before !== digest ? [before, ...(stored.previous[name] ?? [])] : (stored.previous[name] ?? [])
    const distinct = [...new Set(kept)].filter((value) => value !== digest).slice(0, PREVIOUS_VALUES)
    if (distinct.length) previous[name] = distinct
  }
  return previous
}

function learnChanges(
  totals: Map<FacetName, { observed: number; changed: number; close: number }>,
  current: FingerprintProfile,
  stored: StoredProfile,
) {
  for (const { facet, level } of compareFacets(current, stored)) {
    const counts = totals.get(facet) ?? { observed: 0, changed: 0, close: 0 }
    counts.observed++
    if (level !== 'exact') counts.changed++
    if (level === 'close') counts.close++
    totals.set(facet, counts)
  }
}
