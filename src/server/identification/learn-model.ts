import 'server-only'
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { MatchEvidence } from '@/contracts/device'
import { type Database, selectRows } from '../db/client'
import { events, facetChanges, facetPairs, lastSeenShares, returnGaps } from '../db/schema'
import { readSetting } from '../settings/read-setting'
import { writeSetting } from '../settings/write-setting'
import { type FacetName, facets } from './component-model'
import { diverseSample, measurePairs, type SampledVisitor } from './measure-pairs'
import { networkOf } from './network-of'
import type { FacetCounts } from './population'
import { RECENCY_EDGES_MS, recencyBucket } from './recency'

/** Where the last pass stopped reading comebacks. */
const PROGRESS_SETTING = 'model_learning'
/** A token minted this recently proves little: a forger mints one in a second (see SECURITY.md). */
export const TOKEN_HISTORY_MS = 86_400_000
/** What one network can add to the change counts in one pass, in comebacks. */
export const NETWORK_SHARE = 5
/** Comebacks read per pass, oldest first. */
const BATCH = 20_000
/** Visitors compared pairwise to measure u, at most PER_NETWORK from one network, counted ones only. */
const PAIR_SAMPLE = 300
const PER_NETWORK = 20

export interface LearningPass {
  comebacks: number
  weight: number
  pairs: number
}

/**
 * One pass of the model's learning (MODEL.md), run in the background: change rates (m) from the
 * token comebacks stored since the last pass, and the close and difference rates between stored
 * devices (u) from a sample of pairs. Every contribution is bounded: a token counts only once it has
 * a history, one browser once, one network at most NETWORK_SHARE comebacks.
 */
export async function learnModel({
  db,
  now = new Date(),
}: {
  db: Database
  now?: Date
}): Promise<LearningPass> {
  const progress = (await readSetting({ db, key: PROGRESS_SETTING })) as { through?: string } | undefined
  const since = progress?.through ?? new Date(0).toISOString()
  const comebacks = await readComebacks(db, since, now)
  const learned = countChanges(comebacks)
  const gaps = countGaps(comebacks)
  await db.transaction(async (tx) => {
    for (const [bucket, weight] of gaps.entries()) {
      if (weight === 0) continue
      await tx
        .insert(returnGaps)
        .values({ bucket, comebacks: weight })
        .onConflictDoUpdate({
          target: returnGaps.bucket,
          set: { comebacks: sql`${returnGaps.comebacks} + ${weight}` },
        })
    }
    for (const [facet, counts] of learned) {
      await tx
        .insert(facetChanges)
        .values({ facet, ...counts })
        .onConflictDoUpdate({
          target: facetChanges.facet,
          set: {
            observed: sql`${facetChanges.observed} + ${counts.observed}`,
            changed: sql`${facetChanges.changed} + ${counts.changed}`,
            close: sql`${facetChanges.close} + ${counts.close}`,
          },
        })
    }
    const through =
      comebacks.length === BATCH ? comebacks[comebacks.length - 1]?.createdAt : now.toISOString()
    await writeSetting({ db: tx, key: PROGRESS_SETTING, value: { through: through ?? now.toISOString() } })
  })

  await measureLastSeen(db, now)
  const sample = await sampleVisitors(db, now)
  const pairs = measurePairs(diverseSample(sample, PAIR_SAMPLE, PER_NETWORK))
  await db.transaction(async (tx) => {
    for (const [facet, counts] of pairs) {
      await tx
        .insert(facetPairs)
        .values({ facet, ...counts })
        .onConflictDoUpdate({ target: facetPairs.facet, set: counts })
    }
  })
  return {
    comebacks: comebacks.length,
    weight: [...learned.values()].reduce((most, counts) => Math.max(most, counts.observed), 0),
    pairs: [...pairs.values()].reduce((most, counts) => Math.max(most, counts.pairs), 0),
  }
}

/** Visitors read to measure how long ago stored visitors were last seen (pages sampled beyond it). */
const LAST_SEEN_SAMPLE = 20_000

/**
 * u of the recency evidence (recency.ts): how many counted visitors were last seen within each
 * bucket of time before `now`. Beyond LAST_SEEN_SAMPLE visitors (as the statistics count them),
 * a sample of the table's pages is read and the counts scaled up.
 */
async function measureLastSeen(db: Database, now: Date) {
  const at = now.getTime()
  const edges = RECENCY_EDGES_MS.map((edge) => new Date(at - edge).toISOString())
  const [size] = await selectRows(
    db,
    { rows: sql<number>`greatest(reltuples, 0)::float8` },
    (select) => sql`select ${select} from pg_class where oid = 'visitors'::regclass`,
  )
  const percent = Math.min(100, (LAST_SEEN_SAMPLE / Math.max(Number(size?.rows ?? 0), 1)) * 100)
  const buckets = await selectRows(
    db,
    {
      bucket: sql<number>`bucket`,
      visitors: sql<number>`visitors`,
    },
    (select) => sql`select ${select} from (
        select (${sql.join(
          edges.map((edge) => sql`(last_seen_at < ${edge})::int`),
          sql` + `,
        )}) as bucket, count(*)::float8 as visitors
        from visitors tablesample system (${percent}) where counted group by 1) as counted`,
  )
  const counts = new Map(buckets.map((row) => [Number(row.bucket), (Number(row.visitors) * 100) / percent]))
  await db.transaction(async (tx) => {
    for (let bucket = 0; bucket <= RECENCY_EDGES_MS.length; bucket++) {
      const visitors = counts.get(bucket) ?? 0
      await tx
        .insert(lastSeenShares)
        .values({ bucket, visitors })
        .onConflictDoUpdate({ target: lastSeenShares.bucket, set: { visitors } })
    }
  })
}

interface Comeback {
  createdAt: string
  evidence: MatchEvidence | null
  browserId: string | null
  ip: string | null
  browserSince: string | null
  /** The visitor's visit before this one (what a candidate's last visit is to matching). */
  previousAt: string | null
}

const comebackEvent = alias(events, 'e')

function readComebacks(db: Database, since: string, now: Date): Promise<Comeback[]> {
  return selectRows(
    db,
    {
      createdAt: sql<string>`e.created_at`,
      evidence: comebackEvent.evidence,
      browserId: sql<string | null>`e.browser_id`,
      ip: sql<string | null>`e.ip`,
      browserSince: sql<
        string | null
      >`(select min(f.created_at) from events f where f.browser_id = e.browser_id)`,
      previousAt: sql<string | null>`(select max(f.created_at) from events f
        where f.visitor_id = e.visitor_id and f.created_at < e.created_at)`,
    },
    (select) => sql`select ${select} from events e
      where e.comeback and e.method = 'token' and e.evidence is not null and e.created_at > ${since} and e.created_at <= ${now.toISOString()}
      order by e.created_at limit ${BATCH}`,
  )
}

/**
 * Whether a comeback may teach the model how devices change: a token comeback (the query reads no
 * other) of a browser that had held its token for a day. A fingerprint match is the model's own
 * answer (learning from it feeds the model its own mistakes: misses teach that devices change) and
 * a young token costs a forger a second (SECURITY.md).
 */
function confirmed(comeback: Comeback): boolean {
  const since = comeback.browserSince ? Date.parse(comeback.browserSince) : Number.NaN
  return Date.parse(comeback.createdAt) - since >= TOKEN_HISTORY_MS
}

/**
 * The comebacks learning may count, each with its weight: each browser's latest confirmed
 * comeback only, and each network's comebacks scaled down to NETWORK_SHARE in all.
 */
function boundedComebacks(comebacks: readonly Comeback[]): { comeback: Comeback; weight: number }[] {
  const latest = new Map<string, Comeback>()
  comebacks.forEach((comeback, index) => {
    latest.set(comeback.browserId ?? `request ${index}`, comeback)
  })
  const byNetwork = new Map<string, Comeback[]>()
  for (const comeback of latest.values()) {
    if (!confirmed(comeback)) continue
    const network = comeback.ip ? networkOf(comeback.ip) : ''
    const entries = byNetwork.get(network) ?? []
    entries.push(comeback)
    byNetwork.set(network, entries)
  }
  return [...byNetwork.values()].flatMap((entries) =>
    entries.map((comeback) => ({ comeback, weight: Math.min(1, NETWORK_SHARE / entries.length) })),
  )
}

/** Change counts per facet, from the comebacks learning may count (boundedComebacks). */
export function countChanges(comebacks: readonly Comeback[]): Map<FacetName, FacetCounts> {
  const counts = new Map<FacetName, FacetCounts>()
  for (const { comeback, weight } of boundedComebacks(comebacks)) {
    const evidence = MatchEvidence.safeParse(comeback.evidence)
    if (!evidence.success) continue
    for (const { facet, level } of evidence.data.facets) {
      if (!(facet in facets)) continue
      const facetCounts = counts.get(facet as FacetName) ?? { observed: 0, changed: 0, close: 0 }
      facetCounts.observed += weight
      if (level !== 'exact') facetCounts.changed += weight
      if (level === 'close') facetCounts.close += weight
      counts.set(facet as FacetName, facetCounts)
    }
  }
  return counts
}

/**
 * Visitors from a point of the (random) ID space on, in ID order: a point drawn from the pass's
 * time, so a pass is repeatable (a replay's virtual clock) and each pass samples elsewhere.
 */
async function sampleVisitors(db: Database, now: Date): Promise<SampledVisitor[]> {
  const start = createHash('sha256').update(now.toISOString()).digest('base64url').slice(0, 6)
  const columns = {
    digests: sql<Record<string, string>>`profile`,
    parts: sql<Record<string, string>>`parts`,
    network: sql<string | null>`network`,
  }
  const after = await selectRows(
    db,
    columns,
    (select) =>
      sql`select ${select} from visitors where counted and id >= ${start} order by id limit ${PAIR_SAMPLE * 2}`,
  )
  const before = await selectRows(
    db,
    columns,
    (select) =>
      sql`select ${select} from visitors where counted and id < ${start} order by id limit ${PAIR_SAMPLE * 2}`,
  )
  return [...after, ...before]
}

/** Runs a pass every `intervalMs` (and one soon after start), one at a time. */
export function runModelLearning(
  db: Database,
  report: { learned: (pass: LearningPass) => void; failed: (error: unknown) => void },
  intervalMs = 600_000,
) {
  let running = false
  const tick = () => {
    if (running) return
    running = true
    learnModel({ db })
      .then(report.learned, report.failed)
      .finally(() => {
        running = false
      })
  }
  const first = setTimeout(tick, 60_000)
  first.unref()
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return () => {
    clearTimeout(first)
    clearInterval(timer)
  }
}

/** How long after its visitor's previous visit each countable comeback came, weighed, per bucket (recency.ts). */
export function countGaps(comebacks: readonly Comeback[]): number[] {
  const counts = Array.from({ length: RECENCY_EDGES_MS.length + 1 }, () => 0)
  for (const { comeback, weight } of boundedComebacks(comebacks)) {
    if (!comeback.previousAt) continue
    const bucket = recencyBucket(Date.parse(comeback.createdAt) - Date.parse(comeback.previousAt))
    counts[bucket] = (counts[bucket] ?? 0) + weight
  }
  return counts
}
