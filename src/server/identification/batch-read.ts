import 'server-only'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { type Database, selectRows } from '../db/client'
import { visitors } from '../db/schema'
import type { VelocityRow } from '../signals/velocity'
import type { BatchRead, PreparedJob } from './batch-decision'
import { readBatchContext } from './population'

const v = alias(visitors, 'v')
/** A candidate visitor (`v`) with its recent activity and the requests it may be (CandidateRow). */
const candidateColumns = {
  id: v.id,
  profile: v.profile,
  parts: v.parts,
  previous: v.previous,
  visits: v.visits,
  lastSeenAt: v.lastSeenAt,
  velocity: sql<VelocityRow>`activity.velocity`,
  jobs: sql<number[]>`wanted_visitors.jobs`,
}

/** Candidates per blocking key: bounds the work per request however many visitors share a key. */
const CANDIDATES_PER_KEY = 64
/**
 * Candidates per request, ranked by the keys they share with it, each weighed by 1 / the visitors
 * read for it (at most CANDIDATES_PER_KEY, so a key 64 or more share weighs 1/64): a device whose
 * change made it look like many others (a font set they share) still has its own record found by
 * the keys few share, ahead of look-alikes that share more of the common ones.
 */
const MAX_CANDIDATES = 16
/** Events per visitor read for velocity: enough to see a burst, bounded for busy bots. */
const VELOCITY_WINDOW = 1000

/**
 * Reads what a batch's decision needs: one statement for every request's candidates (by blocking
 * key, plus the visitor its token names), each with its recent activity for velocity; one for the
 * population context (value counts not cached, how many visitors share each address).
 */
export async function readBatch(
  tx: Database,
  db: Database,
  prepared: PreparedJob[],
  now: Date,
): Promise<BatchRead> {
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
  const [since5m, since1h, since24h] = [ago(300_000), ago(3_600_000), ago(86_400_000)]
  const keyJobs = prepared.flatMap((job, index) => job.keys.map(() => index))
  const keys = prepared.flatMap((job) => job.keys)
  const tokenJobs = prepared.flatMap((job, index) => (job.token ? [index] : []))
  const tokenIds = prepared.flatMap((job) => (job.token ? [job.token.visitorId] : []))

  const rows = await selectRows(
    tx,
    candidateColumns,
    (select) => sql`with found as (
          select wanted.job, hit.visitor_id, count(*) over (partition by wanted.job, wanted.key) as sharing
          from unnest(${sql.param(keyJobs)}::int[], ${sql.param(keys)}::text[]) as wanted(job, key)
          cross join lateral (
            select visitor_id from visitor_keys where visitor_keys.key = wanted.key limit ${CANDIDATES_PER_KEY}
          ) as hit),
        hits as (
          select job, visitor_id, sum(1.0 / sharing) as weight from found group by job, visitor_id),
        ranked as (
          select job, visitor_id, row_number() over (partition by job order by weight desc, visitor_id) as rank
          from hits),
        picked as (
          select job, visitor_id from ranked where rank <= ${MAX_CANDIDATES}
          union
          select * from unnest(${sql.param(tokenJobs)}::int[], ${sql.param(tokenIds)}::text[]) as token(job, visitor_id)),
        wanted_visitors as (
          select visitor_id, array_agg(job) as jobs from picked group by visitor_id)
        select ${select}
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
  return { rows, population, sharers }
}
