import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { processWide } from '../process-wide'
import { ACCOUNT_DIGEST_LENGTH, ACTIVITY_SAMPLE, type AddressActivity } from '../signals/ip-velocity'
import { type FacetName, facets } from './component-model'
import type { ChangeRates } from './device-volatility'
import type { Place } from './network-of'
import { RECENCY_EDGES_MS } from './recency'
import type { Population } from './score-evidence'

/** Value counts move slowly for matching's purpose: a minute-old count weighs evidence just as well. */
const COUNT_TTL_MS = 60_000
const TOTALS_TTL_MS = 30_000
const MAX_CACHED_COUNTS = 200_000
/**
 * Pseudo-observations of a default change rate: at least this many comebacks, and at least
 * PRIOR_CHANGES changes' worth, so a rarely changing facet (hardware: 0.003) needs thousands of
 * observed changes, not a handful, to move (learning is bounded per network as well: learn-model.ts).
 */
const PRIOR_OBSERVATIONS = 200
const PRIOR_CHANGES = 20
/** Pseudo-pairs of the default close chance against the pairs measured on the population. */
const PRIOR_PAIRS = 50
/** Addresses are looked at over a day; sharers are counted among the latest events of that address. */
const SHARERS_WINDOW_MS = 86_400_000
const SHARERS_SAMPLE = 200

/** A moment as milliseconds since the epoch (a float8). */
const epochMs = (moment: SQL) => sql`extract(epoch from ${moment})::float8 * 1000`

/** The distinct visitors, the events and the oldest event among the latest SHARERS_SAMPLE events of the day where `where`. */
const sampleOf = (
  where: SQL,
  since: string,
) => sql`select count(distinct recent.visitor_id)::bigint as sharers,
    count(*)::float8 as sampled, ${epochMs(sql`min(recent.created_at)`)} as oldest
  from (select visitor_id, created_at from events where ${where} and events.created_at > ${since}
    order by created_at desc limit ${SHARERS_SAMPLE}) as recent`

/**
 * The distinct visitors of an operator (a country) over the day, from its latest SHARERS_SAMPLE
 * events: as counted when they cover the day; scaled to the day when a full sample covers less of
 * it (a carrier's 200 latest events may span minutes). Repeat visitors make the scaled count high,
 * which only makes the evidence weaker. An address's sharers are not scaled: a burst from one
 * office is not a day's crowd, and its evidence is capped by its own sample.
 */
export function dailyVisitors(
  row: { n: number | string; first: number | null; second: number | null },
  now: number,
) {
  const distinct = Number(row.n)
  if (Number(row.first) < SHARERS_SAMPLE || row.second === null) return distinct
  const span = Math.max(now - Number(row.second), 60_000)
  return distinct * Math.max(1, SHARERS_WINDOW_MS / span)
}

/** An address's or a network's events (`recent`) as an AddressActivity (signals/ip-velocity.ts). */
const activityOf = (now: number) => {
  const since5m = new Date(now - 300_000).toISOString()
  const since1h = new Date(now - 3_600_000).toISOString()
  const distinct = (column: string, filter: SQL) =>
    sql`coalesce(array_agg(distinct recent.${sql.raw(column)}) filter (where ${filter}), '{}')`
  const notNull = (column: string) => sql`recent.${sql.raw(column)} is not null`
  // Linked IDs by a short digest (accountDigest): an integrator's IDs may be long, 500 of them no burden.
  const accounts = (filter: SQL) =>
    sql`coalesce(array_agg(distinct left(md5(recent.linked_id), ${ACCOUNT_DIGEST_LENGTH})) filter (where ${filter}), '{}')`
  const lastHour = sql`recent.created_at > ${since1h}`
  return sql`jsonb_build_object(
    'events5m', count(*) filter (where recent.created_at > ${since5m}),
    'events1h', count(*) filter (where ${lastHour}),
    'events24h', count(*),
    'visitors1h', ${distinct('visitor_id', lastHour)},
    'visitors24h', ${distinct('visitor_id', sql`true`)},
    'accounts1h', ${accounts(sql`${notNull('linked_id')} and ${lastHour}`)},
    'accounts24h', ${accounts(notNull('linked_id'))})`
}

export interface FacetCounts {
  observed: number
  changed: number
  close: number
}

export interface PairCounts {
  pairs: number
  differed: number
  close: number
}

interface Totals {
  visitors: number
  /** Every stored visitor, counted or not (beyond its network's budget). */
  allVisitors: number
  /** Counted visitors per bucket of time since their last visit, at the last learning pass (recency.ts). */
  lastSeen: number[]
  /** Confirmed comebacks per bucket of time since their visitor's previous visit (recency.ts). */
  returnGaps: number[]
  facets: Map<string, FacetCounts>
  pairs: Map<string, PairCounts>
  at: number
}

interface Cache {
  counts: Map<string, { count: number; all: number; at: number }>
  totals?: Totals
}

export interface BatchContext {
  population: Population
  /** Distinct visitors seen on each address over the last day (sampled, at least 1 for a seen address). */
  sharers: Map<string, number>
  /** The same for each autonomous system (by number) and each country (by code) of the batch. */
  placeSharers: { asn: Map<number, number>; country: Map<string, number> }
  /** New devices counted in the last hour per network and per site, each at most its budget. */
  newDevices: { network: Map<string, number>; site: Map<string, number> }
  /** What each address and each network did over the last day (ipVelocity), by address and by network. */
  activity: { address: Map<string, AddressActivity>; network: Map<string, AddressActivity> }
}

/** How many new devices a network and a site may add to the statistics in an hour (see env.ts). */
export interface NewDeviceBudgets {
  network: number
  site: number
}

/** How many more (or fewer) stored visitors hold one component value: counted ones, and all. */
export interface CountChange {
  component: string
  digest: string
  /** Visitors counted in the statistics (within their network's budget). */
  delta: number
  /** Every visitor, counted or not. */
  all: number
}

/** One component value as a map key (a digest never holds a NUL). */
export const countKey = (component: string, digest: string) => `${component}\u0000${digest}`

function cacheFor(db: Database): Cache {
  const caches = processWide('populationCache', () => new WeakMap<Database, Cache>())
  let cache = caches.get(db)
  if (!cache) {
    cache = { counts: new Map() }
    caches.set(db, cache)
  }
  return cache
}

/**
 * Reads, in one statement, what a batch needs to weigh evidence: the counts of its values (those
 * not cached), the population's size and learned model (rates and close chances, when stale), and how many
 * visitors share each of its addresses.
 */
export async function readBatchContext(
  db: Database,
  values: { component: string; digest: string }[],
  ips: string[],
  /** The database the cache belongs to, when `db` is one of its transactions. */
  cacheOwner: Database = db,
  now = Date.now(),
  budgeted: { networks: string[]; sites: string[]; budgets: NewDeviceBudgets; places?: Place[] } = {
    networks: [],
    sites: [],
    budgets: { network: 0, site: 0 },
  },
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
  const hourAgo = new Date(now - 3_600_000).toISOString()
  const { networks, sites, budgets, places = [] } = budgeted
  const asns = [...new Set(places.flatMap((place) => place.asn ?? []))]
  const countries = [...new Set(places.flatMap((place) => place.country ?? []))]
  const wanted = [...missing.values()]
  const rows =
    wanted.length || wantTotals || ips.length || networks.length || sites.length || places.length
      ? await selectRows(
          db,
          {
            kind: sql<string>`kind`,
            name: sql<string>`name`,
            detail: sql<string>`detail`,
            // A bigint: a number on PGlite, a string from PostgreSQL's driver.
            n: sql<number | string>`n`,
            first: sql<number | null>`first`,
            second: sql<number | null>`second`,
            third: sql<number | null>`third`,
            value: sql<unknown>`value`,
          },
          (select) => sql`select ${select} from (
            select 'count' as kind, s.component as name, s.digest as detail, s.visitors::bigint as n,
                s.all_visitors::float8 as first, null::float8 as second, null::float8 as third, null::jsonb as value
              from unnest(${sql.param(wanted.map((value) => value.component))}::text[],
                ${sql.param(wanted.map((value) => value.digest))}::text[]) as w(component, digest)
              join component_stats s on s.component = w.component and s.digest = w.digest
            union all
            select 'visitors', '', '', coalesce(max(total), 0)::bigint, max(all_total)::float8, null, null, null from (
              select sum(visitors) as total, sum(all_visitors) as all_total from component_stats
              where ${wantTotals}::boolean and component in ('platform', 'hardwareConcurrency', 'timezone')
              group by component) as totals
            union all
            select 'facet', facet, '', 0, observed, changed, close, null from facet_changes where ${wantTotals}::boolean
            union all
            select 'pairs', facet, '', 0, pairs, differed, close, null from facet_pairs where ${wantTotals}::boolean
            union all
            select 'recency', bucket::text, '', 0, visitors, null, null, null from last_seen_shares where ${wantTotals}::boolean
            union all
            select 'gaps', bucket::text, '', 0, comebacks, null, null, null from return_gaps where ${wantTotals}::boolean
            union all
            select 'ip', w.ip, '', activity.sharers, null, null, null, activity.value
            from unnest(${sql.param(ips)}::text[]) as w(ip)
            cross join lateral (select count(distinct recent.visitor_id) filter (where recent.rank <= ${SHARERS_SAMPLE})
                  as sharers, ${activityOf(now)} as value
                from (select visitor_id, linked_id, created_at, row_number() over (order by created_at desc) as rank
                  from events where events.ip = w.ip and events.created_at > ${since}
                  order by created_at desc limit ${ACTIVITY_SAMPLE}) as recent) as activity
            union all
            select 'network', w.network, '', (select count(*) from (select 1 from visitors
                where visitors.network = w.network and visitors.counted and visitors.first_seen_at > ${hourAgo}
                limit ${budgets.network}) as counted)::bigint, null, null, null, activity.value
            from unnest(${sql.param(networks)}::text[]) as w(network)
            cross join lateral (select ${activityOf(now)} as value
                from (select visitor_id, linked_id, created_at from events
                  where events.network = w.network and events.created_at > ${since}
                  order by created_at desc limit ${ACTIVITY_SAMPLE}) as recent) as activity
            union all
            select 'asn', w.asn::text, '', sample.sharers, sample.sampled, sample.oldest, null, null
            from unnest(${sql.param(asns)}::int[]) as w(asn)
            cross join lateral (${sampleOf(sql`events.asn = w.asn`, since)}) as sample
            union all
            select 'country', w.country, '', sample.sharers, sample.sampled, sample.oldest, null, null
            from unnest(${sql.param(countries)}::text[]) as w(country)
            cross join lateral (${sampleOf(sql`events.country = w.country`, since)}) as sample
            union all
            select 'site', w.site, '', (select count(*) from (select 1 from events
                where events.site_key = w.site and not events.visitor_found and events.created_at > ${hourAgo}
                limit ${budgets.site}) as created)::bigint, null, null, null, null
            from unnest(${sql.param(sites)}::text[]) as w(site)) as context`,
        )
      : []

  for (const key of missing.keys()) mine.counts.set(key, { count: 0, all: 0, at: now })
  const sharers = new Map<string, number>()
  const placeSharers = { asn: new Map<number, number>(), country: new Map<string, number>() }
  const activity = {
    address: new Map<string, AddressActivity>(),
    network: new Map<string, AddressActivity>(),
  }
  const newDevices = { network: new Map<string, number>(), site: new Map<string, number>() }
  const read: Totals = {
    visitors: 0,
    allVisitors: 0,
    lastSeen: [],
    returnGaps: [],
    facets: new Map(),
    pairs: new Map(),
    at: now,
  }
  for (const row of rows) {
    const n = Number(row.n)
    if (row.kind === 'count')
      mine.counts.set(countKey(row.name, row.detail), { count: n, all: Number(row.first ?? n), at: now })
    else if (row.kind === 'ip') {
      sharers.set(row.name, n)
      activity.address.set(row.name, row.value as AddressActivity)
    } else if (row.kind === 'asn') placeSharers.asn.set(Number(row.name), dailyVisitors(row, now))
    else if (row.kind === 'country') placeSharers.country.set(row.name, dailyVisitors(row, now))
    else if (row.kind === 'network') {
      newDevices.network.set(row.name, n)
      activity.network.set(row.name, row.value as AddressActivity)
    } else if (row.kind === 'site') newDevices.site.set(row.name, n)
    else if (row.kind === 'visitors') {
      read.visitors = n
      read.allVisitors = Math.max(Number(row.first ?? n), n)
    } else if (row.kind === 'recency') read.lastSeen[Number(row.name)] = Number(row.first)
    else if (row.kind === 'gaps') read.returnGaps[Number(row.name)] = Number(row.first)
    else if (row.kind === 'facet')
      read.facets.set(row.name, {
        observed: Number(row.first),
        changed: Number(row.second),
        close: Number(row.third),
      })
    else if (row.kind === 'pairs')
      read.pairs.set(row.name, {
        pairs: Number(row.first),
        differed: Number(row.second),
        close: Number(row.third),
      })
  }
  if (wantTotals) mine.totals = read
  const totals = mine.totals ?? read
  const counts = mine.counts
  const facetNames = Object.keys(facets) as FacetName[]
  const rates = new Map(facetNames.map((facet) => [facet, learnedRates(facet, totals.facets.get(facet))]))
  const closeChances = new Map(
    facetNames.map((facet) => [facet, measuredCloseChance(facet, totals.pairs.get(facet))]),
  )
  return {
    sharers,
    placeSharers,
    activity,
    newDevices,
    population: {
      visitors: totals.visitors,
      allVisitors: totals.allVisitors,
      lastSeen: filled(totals.lastSeen),
      returnGaps: filled(totals.returnGaps),
      count: (component, digest) => counts.get(countKey(component, digest))?.count ?? 0,
      countAll: (component, digest) => counts.get(countKey(component, digest))?.all ?? 0,
      rates: (facet) => rates.get(facet) ?? learnedRates(facet, undefined),
      closeChance: (facet) => closeChances.get(facet) ?? facets[facet].closeChance,
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
  changes: readonly CountChange[],
  newVisitors: { counted: number; all: number },
) {
  const mine = cacheFor(db)
  for (const { component, digest, delta, all } of changes) {
    const cached = mine.counts.get(countKey(component, digest))
    if (cached) {
      cached.count += delta
      cached.all += all
    }
  }
  if (mine.totals) {
    mine.totals.visitors += newVisitors.counted
    mine.totals.allVisitors += newVisitors.all
  }
}

/**
 * A facet's change rates for one device of this population: the defaults, moved by what
 * comebacks showed (learn-model.ts). Bounded to a tenth and ten times the default, so no amount of
 * forged comebacks can make a facet look meaningless (or decisive).
 */
export function learnedRates(facet: FacetName, learned: FacetCounts | undefined): ChangeRates {
  const model = facets[facet]
  const observed = learned?.observed ?? 0
  const changed = learned?.changed ?? 0
  const close = learned?.close ?? 0
  const prior = Math.max(PRIOR_OBSERVATIONS, PRIOR_CHANGES / model.changeRate)
  const rate = (changed + prior * model.changeRate) / (observed + prior)
  const share = (close + PRIOR_CHANGES * model.closeShare) / (changed + PRIOR_CHANGES)
  return {
    change: Math.min(Math.max(rate, model.changeRate / 10), Math.min(model.changeRate * 10, 0.5)),
    close: Math.min(Math.max(share, 0), 0.95),
  }
}

/**
 * P(another device's value of a facet is close to one device's): the model's default, moved by
 * the pairs of stored devices learn-model.ts compared.
 */
export function measuredCloseChance(facet: FacetName, measured: PairCounts | undefined): number {
  const prior = facets[facet].closeChance
  if (!measured) return prior
  return (measured.close + PRIOR_PAIRS * prior) / (measured.pairs + PRIOR_PAIRS)
}

/** Counts per recency bucket as read (a bucket never written is 0); none read: undefined. */
function filled(counts: number[]): number[] | undefined {
  if (counts.length === 0) return undefined
  return Array.from({ length: RECENCY_EDGES_MS.length + 1 }, (_, bucket) => counts[bucket] ?? 0)
}
