import 'server-only'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { type Database, selectRows } from '../db/client'
import { visitors } from '../db/schema'
import { getEnv } from '../env'
import type { VelocityRow } from '../signals/velocity'
import type { BatchRead, BrowserState, PreparedJob } from './batch-decision'
import { DEFAULT_WORKSPACE } from './blocking-keys'
import { eventComponents } from './component-snapshots'
import { networkOf } from './network-of'
import { readBatchContext } from './population'

const v = alias(visitors, 'v')
/** A candidate visitor (`v`) with its recent activity and the requests it may be (CandidateRow). */
const candidateColumns = {
  id: v.id,
  profile: v.profile,
  parts: v.parts,
  previous: v.previous,
  volatility: v.volatility,
  workspace: v.workspace,
  counted: v.counted,
  network: v.network,
  firstSeenAt: v.firstSeenAt,
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
 * the keys few share, ahead of look-alikes that share more of the common ones. After two changes,
 * a device's one surviving key may be shared by a dozen of its kind while look-alikes holding its
 * new values share several keys and rank ahead: 16 left such devices out; 32 finds them. Each
 * candidate read and scored costs throughput (MODEL.md, Blocking): 64 merged more and gained little.
 */
const MAX_CANDIDATES = 32
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
  // The browsers first: a token names the visitor of the workspace it was minted in; in this one
  // the browser is the visitor its own latest event here says.
  const browsers = await readBrowsers(tx, prepared, { since5m, since1h, since24h })
  const tokenJobs = prepared.flatMap((job, index) => (job.token ? [index] : []))
  const tokenIds = prepared.flatMap((job, index) =>
    job.token ? [browsers.get(index)?.visitorId ?? job.token.visitorId] : [],
  )

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
          -- Ties go to devices with a history over fresh look-alikes (a flood of near-copies).
          select job, visitor_id, row_number() over (
              partition by job order by weight desc, ranking.counted desc, ranking.visits desc, visitor_id) as rank
          from hits join visitors ranking on ranking.id = hits.visitor_id),
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
          select ${velocityOf(since5m, since1h)} as velocity
          from (select created_at, ip, linked_id from events
                where events.visitor_id = v.id and events.created_at > ${since24h}
                order by created_at desc limit ${VELOCITY_WINDOW}) as recent
        ) as activity`,
  )

  const env = getEnv()
  const budgets = { network: env.TESSERA_NEW_DEVICES_PER_NETWORK, site: env.TESSERA_NEW_DEVICES_PER_SITE }
  const { population, sharers, placeSharers, newDevices, activity } = await readBatchContext(
    tx,
    prepared.flatMap((job) =>
      Object.entries(job.profile.digests).map(([component, digest]) => ({ component, digest })),
    ),
    [...new Set(prepared.flatMap((job) => (job.context.ip ? [job.context.ip] : [])))],
    db,
    now.getTime(),
    {
      networks: [...new Set(prepared.flatMap((job) => (job.context.ip ? [networkOf(job.context.ip)] : [])))],
      places: prepared.map((job) => job.place),
      sites: [...new Set(prepared.flatMap((job) => (job.input.siteKey ? [job.input.siteKey] : [])))],
      budgets,
    },
  )
  return { rows, browsers, population, sharers, placeSharers, newDevices, activity, budgets }
}

/** Velocity over a set of events (`recent`: created_at, ip, linked_id), as a VelocityRow. */
const velocityOf = (since5m: string, since1h: string) => sql`json_build_object(
    'events5m', count(*) filter (where recent.created_at > ${since5m}),
    'events1h', count(*) filter (where recent.created_at > ${since1h}),
    'events24h', count(*),
    'ips5m', coalesce(array_agg(distinct recent.ip) filter (where recent.created_at > ${since5m} and recent.ip is not null), '{}'),
    'ips1h', coalesce(array_agg(distinct recent.ip) filter (where recent.created_at > ${since1h} and recent.ip is not null), '{}'),
    'ips24h', coalesce(array_agg(distinct recent.ip) filter (where recent.ip is not null), '{}'),
    'linked24h', coalesce(array_agg(distinct recent.linked_id) filter (where recent.linked_id is not null), '{}'))`

/**
 * What the batch's token-holding browsers did themselves in their request's workspace (their own
 * events, by their secret browser ID): the visitor they last were there, when they were first
 * seen there, whether their first visit there created that visitor, the components of their latest
 * visit, and their own recent activity. A token is weighed against its own browser's fingerprint,
 * never against what other browsers made the visitor's profile (SECURITY.md).
 */
async function readBrowsers(
  tx: Database,
  prepared: PreparedJob[],
  { since5m, since1h, since24h }: { since5m: string; since1h: string; since24h: string },
): Promise<Map<number, BrowserState>> {
  const jobs = prepared.flatMap((job, index) => (job.token?.browserId ? [index] : []))
  if (jobs.length === 0) return new Map()
  const browserIds = jobs.map((index) => prepared[index]?.token?.browserId ?? '')
  const workspaces = jobs.map((index) => prepared[index]?.context.workspace ?? DEFAULT_WORKSPACE)
  const rows = await selectRows(
    tx,
    {
      job: sql<number>`b.job`,
      visitorId: sql<string>`latest.visitor_id`,
      since: sql<string>`first.created_at`,
      created: sql<boolean>`coalesce(first.method = 'new' and first.visitor_id = latest.visitor_id, false)`,
      components: eventComponents('latest'),
      velocity: sql<VelocityRow>`activity.velocity`,
    },
    (select) => sql`select ${select}
      from unnest(${sql.param(jobs)}::int[], ${sql.param(browserIds)}::text[], ${sql.param(workspaces)}::text[])
        as b(job, browser_id, workspace)
      join lateral (select e.visitor_id, e.snapshot, e.durations from events e join visitors on visitors.id = e.visitor_id
        where e.browser_id = b.browser_id and visitors.workspace = b.workspace
        order by e.created_at desc limit 1) as latest on true
      join lateral (select created_at, method, visitor_id from events
        where events.browser_id = b.browser_id and events.visitor_id = latest.visitor_id
        order by created_at limit 1) as first on true
      cross join lateral (select ${velocityOf(since5m, since1h)} as velocity
        from (select created_at, ip, linked_id from events
              where events.browser_id = b.browser_id and events.visitor_id = latest.visitor_id
                and events.created_at > ${since24h}
              order by created_at desc limit ${VELOCITY_WINDOW}) as recent) as activity`,
    { prepared: true },
  )
  return new Map(rows.map(({ job, ...browser }) => [job, browser]))
}
