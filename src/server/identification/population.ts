import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { processWide } from '../process-wide'
import { type FacetName, facets } from './component-model'
import type { Population } from './score-evidence'

/** Value counts move slowly for matching's purpose: a minute-old count weighs evidence just as well. */
const COUNT_TTL_MS = 60_000
const TOTALS_TTL_MS = 30_000
const MAX_CACHED_COUNTS = 200_000
/** Pseudo-observations of the default change rates: learned rates need many confirmed revisits to move. */
const PRIOR_OBSERVATIONS = 200
const PRIOR_CHANGES = 20
/** Addresses are looked at over a day; sharers are counted among the latest events of that address. */
const SHARERS_WINDOW_MS = 86_400_000
const SHARERS_SAMPLE = 200

interface FacetCounts {
  observed: number
  changed: number
  close: number
}

interface Cache {
  counts: Map<string, { count: number; at: number }>
  totals?: { visitors: number; facets: Map<string, FacetCounts>; at: number }
}

export interface BatchContext {
  population: Population
  /** Distinct visitors seen on each address over the last day (sampled, at least 1 for a seen address). */
  sharers: Map<string, number>
}

const countKey = (component: string, digest: string) => `${component}\u0000${digest}`

/**
 * Reads, in one statement, what a batch needs to weigh evidence: the counts of its values (those
 * not cached), the population's size and learned change rates (when stale), and how many
 * visitors share each of its addresses.
 */
function cacheFor(db: Database): Cache {
  const caches = processWide('populationCache', () => new WeakMap<Database, Cache>())
  let cache = caches.get(db)
  if (!cache) {
    cache = { counts: new Map() }
    caches.set(db, cache)
  }
  return cache
}

export async function readBatchContext(
  db: Database,
  values: { component: string; digest: string }[],
  ips: string[],
  /** The database the cache belongs to, when `db` is one of its transactions. */
  cacheOwner: Database = db,
  now = Date.now(),
): Promise<BatchContext> {
  const mine = cacheFor(cacheOwner)
  if (mine.counts.size > MAX_CACHED_COUNTS) mine.counts.clear()
  const missing = new Map<string, { component: string; digest: string }>()
  for (const value of values) {
    const key = countKey(value.component, value.digest)
    const cached = mine.counts.get(key)
    if (!cached || now - cached.at > COUNT_TTL_MS) missing.set(key, value)
  }
  const wantTotals = !mine.totals || now - mine.totals.at > TOTALS_TTL_MS
  const since = new Date(now - SHARERS_WINDOW_MS).toISOString()
  const wanted = [...missing.values()]
  const rows =
    wanted.length || wantTotals || ips.length
      ? await selectRows(
          db,
          {
            kind: sql<string>`kind`,
            name: sql<string>`name`,
            detail: sql<string>`detail`,
            // A bigint: a number on PGlite, a string from PostgreSQL's driver.
            n: sql<number | string>`n`,
          },
          (select) => sql`select ${select} from (
            select 'count' as kind, s.component as name, s.digest as detail, s.visitors::bigint as n
              from unnest(${sql.param(wanted.map((value) => value.component))}::text[],
                ${sql.param(wanted.map((value) => value.digest))}::text[]) as w(component, digest)
              join component_stats s on s.component = w.component and s.digest = w.digest
            union all
            select 'visitors', '', '', coalesce(max(total), 0)::bigint from (
              select sum(visitors) as total from component_stats
              where ${wantTotals}::boolean and component in ('platform', 'hardwareConcurrency', 'timezone')
              group by component) as totals
            union all
            select 'facet', facet, changed || ':' || close, observed::bigint from facet_changes where ${wantTotals}::boolean
            union all
            select 'ip', w.ip, '', (select count(distinct recent.visitor_id) from (
                select visitor_id from events where events.ip = w.ip and events.created_at > ${since}
                order by created_at desc limit ${SHARERS_SAMPLE}) as recent)::bigint
            from unnest(${sql.param(ips)}::text[]) as w(ip)) as context`,
        )
      : []

  for (const key of missing.keys()) mine.counts.set(key, { count: 0, at: now })
  const sharers = new Map<string, number>()
  const facetCounts = new Map<string, FacetCounts>()
  let visitors: number | undefined
  for (const row of rows) {
    const n = Number(row.n)
    if (row.kind === 'count') mine.counts.set(countKey(row.name, row.detail), { count: n, at: now })
    else if (row.kind === 'ip') sharers.set(row.name, n)
    else if (row.kind === 'visitors') visitors = n
    else if (row.kind === 'facet') {
      const [changed = 0, close = 0] = row.detail.split(':').map(Number)
      facetCounts.set(row.name, { observed: n, changed, close })
    }
  }
  if (wantTotals) mine.totals = { visitors: visitors ?? 0, facets: facetCounts, at: now }
  const totals = mine.totals ?? { visitors: 0, facets: facetCounts, at: now }
  const counts = mine.counts
  const rates = new Map(
    (Object.keys(facets) as FacetName[]).map((facet) => [
      facet,
      learnedRates(facet, totals.facets.get(facet)),
    ]),
  )
  return {
    sharers,
    population: {
      visitors: totals.visitors,
      count: (component, digest) => counts.get(countKey(component, digest))?.count ?? 0,
      rates: (facet) => rates.get(facet) ?? learnedRates(facet, undefined),
    },
  }
}

/**
 * Applies a committed batch's own changes to the cached counts, so this process never weighs
 * evidence with counts older than its own writes (a value seen twice must not look unique).
 * Other app servers' writes show once the cache expires.
 */
export function applyCommittedCounts(
  db: Database,
  changes: { component: string; digest: string; delta: number }[],
  newVisitors: number,
) {
  const mine = cacheFor(db)
  for (const { component, digest, delta } of changes) {
    const cached = mine.counts.get(countKey(component, digest))
    if (cached) cached.count += delta
  }
  if (mine.totals) mine.totals.visitors += newVisitors
}

/**
 * A facet's change rate and close share: the defaults, moved by what confirmed revisits showed.
 * Bounded to a tenth and ten times the default, so a flood of forged revisits cannot make a
 * facet look meaningless (or decisive).
 */
export function learnedRates(facet: FacetName, learned: FacetCounts | undefined) {
  const model = facets[facet]
  const observed = learned?.observed ?? 0
  const changed = learned?.changed ?? 0
  const close = learned?.close ?? 0
  const rate = (changed + PRIOR_OBSERVATIONS * model.changeRate) / (observed + PRIOR_OBSERVATIONS)
  const share = (close + PRIOR_CHANGES * model.closeShare) / (changed + PRIOR_CHANGES)
  return {
    changeRate: Math.min(Math.max(rate, model.changeRate / 10), Math.min(model.changeRate * 10, 0.5)),
    closeShare: Math.min(Math.max(share, 0), 0.95),
  }
}
