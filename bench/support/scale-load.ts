// Bulk-loads bench:scale's synthetic traffic into a migrated database. The ONE module that knows
// the tables' layout: events and the component snapshots they reference by digest, visitors with
// their blocking keys, the value statistics, sign-up decisions and accounts, sites, the model's
// learning mark. What the database derives itself (the console's rollups and visitor sketches,
// by triggers on events and decisions) it derives here too: the load runs them. When the storage
// changes, this file alone follows.
// Per-visitor values are computed in JS with the server's own code (scale-derived.ts) and staged in
// unlogged tables, with each visitor's visits (moments, in SQL). The events are then written in
// time order, as a server appends them (a time range reads a share of the table, not all of it),
// with the secondary indexes dropped meanwhile and built again at the end.
import type { ComponentResult } from '../../src/contracts/identify'
import type { StoredSignals } from '../../src/contracts/signals'
import { packEvidence } from '../../src/server/db/packed-evidence'
import { ipDetailsOf, packSignals, type SignalsRow } from '../../src/server/db/packed-signals'
import { flagsOf } from '../../src/server/db/schema/event-flags'
import { events } from '../../src/server/db/schema/events'
import { type SnapshotOfEvent, snapshotOfEvent } from '../../src/server/identification/component-snapshots'
import { MODEL_VERSION } from '../../src/server/identification/model-version'
import {
  createDeriver,
  type DerivedVisitor,
  inServerOrder,
  matchEvidence,
  signupDecisions,
} from './scale-derived'
import { BASE_COMPONENTS } from './scale-snapshot'
import type { Traffic } from './scale-traffic'

/** The tables an event's storage is made of: bytes per event sums their total size. */
export const EVENT_STORAGE_TABLES = ['events', 'component_snapshots', 'ip_details']
/** The tables this loader fills (their secondary indexes are rebuilt after the load). */
const LOADED_TABLES = ['events', 'visitors', 'visitor_keys', 'signup_decisions', 'accounts']
/**
 * Analyzed after the load too: what the triggers derive (rollups, sketches), the value statistics;
 * and the tables written as identify writes them, indexes and all: the snapshots (re-dating one
 * changes its indexed last day, so no update is HOT, as on a server) and the network details.
 */
const ALSO_ANALYZED = [
  'event_rollups',
  'visitor_sketches',
  'component_stats',
  'component_snapshots',
  'ip_details',
]
const CHUNK_EVENTS = 50_000
const CHUNK_VISITORS = 5_000
/** Events are written from 100 days ago (the expired ones first) to now, about this many per statement. */
const SLICE_EVENTS = 50_000
const LOADED_DAYS = 100
const SITE_HOSTS = ['shop.example', 'news.example', 'app.example', 'docs.example']

export interface LoadedTraffic {
  events: number
  /** Events older than the retention period (90 days): what a retention pass removes. */
  expiredEvents: number
  visitors: number
  signups: number
  seconds: number
  /** The sites' public keys, the default site's first. */
  siteKeys: string[]
}

type Row = Record<string, unknown>

/**
 * What the loader needs of a database connection: pg.Client's `query` (a statement with parameters,
 * or several without) and `end`. On the embedded database every "connection" is the one PGlite,
 * which runs their statements one at a time.
 */
export interface LoadClient {
  query<R = Row>(text: string, params?: unknown[]): Promise<{ rows: R[] }>
  end(): Promise<void>
}

/** Loads `traffic` into a migrated database with its default site, over connections from `connect`. */
export async function loadTraffic({
  connect,
  traffic,
  now,
  log,
}: {
  connect: () => Promise<LoadClient>
  traffic: Traffic
  now: Date
  log: (line: string) => void
}): Promise<LoadedTraffic> {
  const started = performance.now()
  // Three connections: one stages visitors while two draw their visits, then two write events.
  // Triggers and foreign keys stay on: the rollups are the triggers' work, as in production.
  const clients = [await connect(), await connect(), await connect()]
  const [stager, ...writers] = clients as [LoadClient, LoadClient, LoadClient]
  try {
    const siteKeys = await createSites(stager)
    // On PostgreSQL events are stored by day (event-partitions.ts): the loaded days' tables first,
    // as a server running through those days would have made them.
    await stager.query(
      `select tessera_event_partitions(($1::timestamptz at time zone 'UTC')::date, ($2::timestamptz at time zone 'UTC')::date)`,
      [new Date(now.getTime() - LOADED_DAYS * 86_400_000).toISOString(), now.toISOString()],
    )
    const indexes = await dropSecondaryIndexes(stager)
    await createStaging(stager)
    const derive = createDeriver(traffic)
    const statistics = new Map<string, number>()
    const totals = { events: 0, expiredEvents: 0, signups: 0, visitors: 0 }
    const progress = (what: string, done: number, total: number) => {
      const seconds = (performance.now() - started) / 1000
      log(`  ${what}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}, ${seconds.toFixed(0)} s`)
    }
    // Visitors: derived here while the writers stage the visits of the chunks before.
    const chunks = visitorChunks(traffic)
    await inTurns(
      writers,
      chunks,
      async (writer, [low, high]) => {
        const staged = await stageVisits(writer, [low, high], now)
        totals.expiredEvents += staged.expired
        totals.visitors += staged.visitors
        progress('visitors staged', totals.visitors, traffic.loaded)
      },
      async ([low, high]) => {
        const rows = Array.from({ length: high - low }, (_, offset) => derive(low + offset))
        countValues(rows, statistics)
        await stageVisitors(stager, rows, traffic)
      },
    )
    await stager.query('create index on scale_visits (at); analyze scale_visits, scale_visitors')
    // Events: each writer appends its slice in time order, a day at most each (identify re-dates a
    // snapshot once a day at most: coarser slices would re-date it less often than a server does).
    const bounds = daySlices(
      now,
      Math.ceil((traffic.events - traffic.spike.events) / SLICE_EVENTS / LOADED_DAYS),
      Math.ceil(traffic.spike.events / SLICE_EVENTS),
    )
    const writing = performance.now()
    const snapshots = { stored: 0, dead: 0 }
    await inTurns(writers, bounds, async (writer, slice) => {
      const written = await retriedOnDeadlock(() => writeEvents(writer, slice, siteKeys))
      totals.events += written.events
      totals.signups += written.signups
      // Autovacuum's rule (50 rows and a fifth of the table dead), in the load's time: a server's
      // day is hours of autovacuum's minute-long naps, where the load's is seconds. Without it
      // re-dated snapshots' old versions piled up as no running server lets them.
      snapshots.stored += written.stored
      snapshots.dead += written.redated
      if (snapshots.dead > 50 + 0.2 * snapshots.stored) {
        snapshots.dead = 0
        await stager.query('vacuum component_snapshots')
      }
      const rate = totals.events / ((performance.now() - writing) / 1000)
      progress(`events (${rate.toFixed(0)} a second)`, totals.events, traffic.events)
    })
    await stager.query(
      'insert into visitor_keys (key, visitor_id) select k.key, s.id from scale_keys k join scale_visitors s using (idx)',
    )
    await writeStatistics(stager, statistics, traffic)
    await stager.query(
      `insert into settings (key, value) values ('model_learning', $1)
       on conflict (key) do update set value = excluded.value`,
      // As on a server that has been running: its model has learned from every comeback so far.
      [JSON.stringify({ through: now.toISOString() })],
    )
    await stager.query(
      'drop table scale_visitors, scale_visits, scale_snapshots, scale_keys, scale_devices, scale_evidence, scale_decisions',
    )
    for (const index of indexes) {
      const building = performance.now()
      await stager.query(index.definition)
      log(`  index ${index.name}: ${((performance.now() - building) / 1000).toFixed(1)} s`)
    }
    const vacuuming = performance.now()
    for (const table of [...LOADED_TABLES, ...ALSO_ANALYZED]) await stager.query(`vacuum (analyze) ${table}`)
    log(`  vacuum analyze: ${((performance.now() - vacuuming) / 1000).toFixed(1)} s`)
    return { ...totals, seconds: (performance.now() - started) / 1000, siteKeys }
  } finally {
    for (const client of clients) await client.end()
  }
}

/** The default site (made by the server) and three more in its workspace, sharing visitor identity. */
async function createSites(client: LoadClient): Promise<string[]> {
  const { rows } = await client.query<{ public_key: string }>('select public_key from sites where is_default')
  const defaultKey = rows[0]?.public_key
  if (!defaultKey) throw new Error('The database has no default site: start Tessera on it once first.')
  const others = SITE_HOSTS.slice(1).map((host, at) => ({
    id: `site_scale${at}`,
    host,
    key: `pk_scale_${at}_${host}`,
  }))
  await client.query(
    `insert into sites (id, name, public_key, allowed_origins, workspace)
     select id, host, key, array['https://' || host], 'default'
     from unnest($1::text[], $2::text[], $3::text[]) as input(id, host, key)`,
    [others.map((site) => site.id), others.map((site) => site.host), others.map((site) => site.key)],
  )
  return [defaultKey, ...others.map((site) => site.key)]
}

/** Visitor index ranges of at most CHUNK_VISITORS visitors and about CHUNK_EVENTS events. */
function visitorChunks(traffic: Traffic): [number, number][] {
  const chunks: [number, number][] = []
  for (let low = 0; low < traffic.loaded; ) {
    let high = low
    let events = 0
    while (high < traffic.loaded && high - low < CHUNK_VISITORS && events < CHUNK_EVENTS)
      events += traffic.counts[high++] ?? 0
    chunks.push([low, high])
    low = high
  }
  return chunks
}

/**
 * Runs `work` for each item on the connections in turn, one item per connection at a time, after
 * `prepare` (run here, one item ahead of the connections).
 */
async function inTurns<Item>(
  connections: LoadClient[],
  items: readonly Item[],
  work: (connection: LoadClient, item: Item) => Promise<void>,
  prepare: (item: Item) => Promise<void> = async () => undefined,
) {
  const running: (Promise<void> | undefined)[] = connections.map(() => undefined)
  for (const [at, item] of items.entries()) {
    await prepare(item)
    const slot = at % connections.length
    await running[slot]
    const done = work(connections[slot] as LoadClient, item)
    // Awaited in turn; a failure meanwhile must not count as unhandled.
    done.catch(() => undefined)
    running[slot] = done
  }
  await Promise.all(running)
}

/**
 * Runs one statement again when PostgreSQL broke a deadlock by cancelling it (it rolled back whole):
 * two writers' slices can move the last day of the same snapshots in opposite orders.
 */
async function retriedOnDeadlock<Result>(statement: () => Promise<Result>): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement()
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error
    }
  }
}

/**
 * The load's time from LOADED_DAYS ago to now in slices within UTC days (`perDay` to a day, and
 * `firstDay` more on the first, where a spike is: stageVisits), oldest first: a snapshot used on both
 * sides of a midnight is re-dated on each side, as identify does.
 */
function daySlices(now: Date, perDay: number, firstDay = 0): (readonly [Date, Date])[] {
  const DAY = 86_400_000
  const from = now.getTime() - LOADED_DAYS * DAY
  const slices: (readonly [Date, Date])[] = []
  for (let day = Math.floor(from / DAY) * DAY; day <= now.getTime(); day += DAY) {
    const [low, high] = [Math.max(from, day), Math.min(now.getTime() + 1, day + DAY)]
    const parts = perDay + (day < from ? firstDay : 0)
    for (let part = 0; part < parts; part++) {
      const start = low + ((high - low) * part) / parts
      const end = low + ((high - low) * (part + 1)) / parts
      if (start < end) slices.push([new Date(start), new Date(end)] as const)
    }
  }
  return slices
}

/** Drops the indexes no constraint needs (rebuilt at the end, much faster than kept up row by row). */
async function dropSecondaryIndexes(client: LoadClient): Promise<{ name: string; definition: string }[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes i
     where schemaname = 'public' and tablename = any($1)
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [LOADED_TABLES],
  )
  for (const { name } of rows) await client.query(`drop index "${name}"`)
  // A partitioned table's index is defined ON ONLY the parent; made again, it is made on every day's table.
  return rows.map((row) => ({ ...row, definition: row.definition.replace(' ON ONLY ', ' ON ') }))
}

async function createStaging(client: LoadClient) {
  await client.query(`
    create unlogged table scale_visitors (idx int primary key, id text, kind text, events int, gone boolean, spike boolean,
      signs_up boolean, browser_id text, linked_id text, site int, device_class text, user_agent bytea, email text,
      snapshot uuid, durations bytea, profile jsonb, parts jsonb, home_ip text, home_network text, home_asn int, home_country text,
      home_signals jsonb, home_score int, mobile_ip text, mobile_network text, mobile_asn int, mobile_country text,
      mobile_signals jsonb, mobile_score int);
    create unlogged table scale_visits (idx int, at timestamptz, k int, r1 float8, r2 float8, r3 float8,
      request_id text, mobile boolean, method text, signup boolean);
    create unlogged table scale_snapshots (digest uuid primary key, stored bytea);
    create unlogged table scale_keys (idx int, key text);
    create unlogged table scale_devices (device_class text primary key, signals jsonb);
    create unlogged table scale_evidence (method text, variant int, evidence bytea, primary key (method, variant));
    create unlogged table scale_decisions (bot boolean, low real, high real, outcome text, reasons jsonb)`)
  const evidence = (['new', 'token', 'fingerprint'] as const).flatMap((method) =>
    Array.from({ length: 8 }, (_, variant) => [
      method,
      variant,
      packEvidence(matchEvidence(method, variant)),
    ]),
  )
  await client.query(
    'insert into scale_evidence select * from unnest($1::text[], $2::int[], $3::bytea[])',
    [0, 1, 2].map((column) => evidence.map((row) => row[column])),
  )
  // Each outcome takes its share of [0, 1) of a random draw; the last of a kind takes the rest.
  const decisions = signupDecisions()
  const ranges = decisions.map((decision, at) => {
    const before = decisions.slice(0, at).filter((other) => other.bot === decision.bot)
    const low = before.reduce((sum, other) => sum + other.share, 0)
    const last = !decisions.slice(at + 1).some((other) => other.bot === decision.bot)
    return [
      decision.bot,
      low,
      last ? 2 : low + decision.share,
      decision.outcome,
      JSON.stringify(decision.reasons),
    ]
  })
  await client.query(
    'insert into scale_decisions select * from unnest($1::boolean[], $2::real[], $3::real[], $4::text[], $5::jsonb[])',
    [0, 1, 2, 3, 4].map((column) => ranges.map((range) => range[column])),
  )
}

/** Writes a chunk's visitors to the staging table, their device signals, and their blocking keys. */
async function stageVisitors(client: LoadClient, rows: DerivedVisitor[], traffic: Traffic) {
  const snapshots = new Map(
    rows.map((row) => [row, snapshotOfEvent({ ...BASE_COMPONENTS, ...row.visitor.variation })]),
  )
  const sent = (row: DerivedVisitor) => snapshots.get(row) as SnapshotOfEvent
  const columns: [string, string, (row: DerivedVisitor) => unknown][] = [
    ['idx', 'int', (row) => row.visitor.index],
    ['id', 'text', (row) => row.visitor.id],
    ['kind', 'text', (row) => row.visitor.kind],
    ['events', 'int', (row) => traffic.counts[row.visitor.index]],
    ['gone', 'boolean', (row) => row.visitor.gone],
    ['spike', 'boolean', (row) => row.visitor.spike],
    ['signs_up', 'boolean', (row) => row.visitor.signsUp],
    ['browser_id', 'text', (row) => row.visitor.browserId],
    ['linked_id', 'text', (row) => row.visitor.linkedId],
    ['site', 'int', (row) => row.visitor.site],
    ['device_class', 'text', (row) => row.visitor.deviceClass],
    // As identify stores it (the header is the agent's own user agent here).
    [
      'user_agent',
      'bytea',
      (row) => events.userAgent.mapToDriverValue(componentValue(row.visitor.variation.userAgent) as string),
    ],
    ['email', 'text', (row) => row.visitor.email],
    // What the visitor's browser sends (the base snapshot under its own values), stored once as a
    // component snapshot as identify stores it; its events reference it and keep the durations.
    ['snapshot', 'uuid', (row) => sent(row).digest],
    ['stored', 'bytea', (row) => sent(row).stored],
    ['durations', 'bytea', (row) => sent(row).durations],
    ['profile', 'jsonb', (row) => JSON.stringify(row.digests)],
    ['parts', 'jsonb', (row) => JSON.stringify(row.parts)],
    ['home_ip', 'text', (row) => row.visitor.home.ip],
    ['home_network', 'text', (row) => row.visitor.home.network],
    ['home_asn', 'int', (row) => row.visitor.home.info?.autonomousSystem?.asn ?? null],
    ['home_country', 'text', (row) => row.visitor.home.info?.geolocation?.countryCode ?? null],
    ['home_signals', 'jsonb', (row) => JSON.stringify(row.home.signals)],
    ['home_score', 'int', (row) => row.home.score],
    ['mobile_ip', 'text', (row) => row.visitor.mobile?.ip ?? null],
    ['mobile_network', 'text', (row) => row.visitor.mobile?.network ?? null],
    ['mobile_asn', 'int', (row) => row.visitor.mobile?.info?.autonomousSystem?.asn ?? null],
    ['mobile_country', 'text', (row) => row.visitor.mobile?.info?.geolocation?.countryCode ?? null],
    ['mobile_signals', 'jsonb', (row) => (row.mobile ? JSON.stringify(row.mobile.signals) : null)],
    ['mobile_score', 'int', (row) => row.mobile?.score ?? null],
  ]
  const names = columns.map(([name]) => name)
  const staged = names.filter((name) => name !== 'stored')
  await client.query(
    `with input as (
      select * from unnest(${columns.map(([, type], at) => `$${at + 1}::${type}[]`).join(', ')}) as input(${names.join(', ')})),
    snapshots as (
      -- Staged: writeEvents stores each with its first event, as identify does.
      insert into scale_snapshots (digest, stored)
      select distinct on (snapshot) snapshot, stored from input order by snapshot on conflict do nothing)
    insert into scale_visitors (${staged.join(', ')}) select ${staged.join(', ')} from input`,
    columns.map(([, , value]) => rows.map(value)),
  )
  const devices = new Map(rows.map((row) => [row.visitor.deviceClass, JSON.stringify(row.device)]))
  await client.query(
    `insert into scale_devices select * from unnest($1::text[], $2::jsonb[]) on conflict do nothing`,
    [[...devices.keys()], [...devices.values()]],
  )
  // Written once every visitor is (a key refers to its visitor).
  const keys = rows.flatMap((row) => row.keys.map((key) => [row.visitor.index, key] as const))
  await client.query('insert into scale_keys select * from unnest($1::int[], $2::text[])', [
    keys.map(([index]) => index),
    keys.map(([, key]) => key),
  ])
}

function componentValue(result: ComponentResult | undefined): unknown {
  return result && 'value' in result ? result.value : null
}

/** How many visitors hold each component value (component_stats), the varied components only. */
function countValues(rows: DerivedVisitor[], statistics: Map<string, number>) {
  for (const row of rows) {
    for (const name of Object.keys(row.visitor.variation)) {
      const digest = row.digests[name]
      if (digest === undefined) continue
      const key = `${name}\u0000${digest}`
      statistics.set(key, (statistics.get(key) ?? 0) + 1)
    }
  }
}

/** component_stats: the varied values as counted, and each base value held by every visitor. */
async function writeStatistics(client: LoadClient, statistics: Map<string, number>, traffic: Traffic) {
  const entries = [...statistics].map(([key, visitors]) => [...key.split('\u0000'), visitors] as const)
  for (let start = 0; start < entries.length; start += 50_000) {
    const batch = entries.slice(start, start + 50_000)
    await client.query(
      'insert into component_stats (component, digest, visitors, all_visitors) select c, d, n, n from unnest($1::text[], $2::text[], $3::int[]) as u(c, d, n)',
      [0, 1, 2].map((column) => batch.map((entry) => entry[column])),
    )
  }
  await client.query(
    `insert into component_stats (component, digest, visitors, all_visitors)
     select key, value, $2, $2 from jsonb_each_text((select profile from visitors limit 1))
     where key <> all($1::text[])`,
    [Object.keys(traffic.visitor(0).variation), traffic.loaded],
  )
}

/** Base-36 of epoch milliseconds (8 digits until 2059), as request IDs begin (new-id.ts). */
const base36 = (expression: string) =>
  Array.from({ length: 8 }, (_, at) => 36 ** (7 - at))
    .map(
      (unit) =>
        `substr('0123456789abcdefghijklmnopqrstuvwxyz', ((${expression} / ${unit}) % 36)::int + 1, 1)`,
    )
    .join(' || ')

/** The end of the load's first UTC day: the oldest day's table holds what comes before it. */
function endOfFirstDay(now: Date): number {
  const DAY = 86_400_000
  return (Math.floor((now.getTime() - LOADED_DAYS * DAY) / DAY) + 1) * DAY
}

/**
 * Draws the visits of staged visitors [low, high): each at a random moment of the last 90 days (5 %
 * of them, and every visit of a "gone" visitor, 91 to 100 days old; a spike's visitor's, on the
 * oldest day); a visitor's earliest is its first (a new visitor), later ones return by token or
 * fingerprint. Writes the visitors themselves (first and last seen, visits).
 */
async function stageVisits(
  client: LoadClient,
  [low, high]: readonly [number, number],
  now: Date,
): Promise<{ expired: number; visitors: number }> {
  const { rows } = await client.query<Row>(
    `with moments as materialized (
      select s.idx, g.at, row_number() over (partition by s.idx order by g.at)::int as k
      from scale_visitors s cross join lateral (
        select case when s.spike then $5::timestamptz + random() * ($6::timestamptz - $5::timestamptz)
          when s.gone or random() < 0.05
          then $1::timestamptz - interval '91 days' - random() * interval '9 days'
          else $1::timestamptz - random() * interval '90 days' end as at
        from generate_series(1, s.events)) as g
      where s.idx >= $2 and s.idx < $3),
    visits as (
      insert into scale_visits
      select m.idx, m.at, m.k, random(), random(), random(),
        ${base36('(extract(epoch from m.at) * 1000)::bigint')} || '.' || substr(md5(m.idx || ':' || m.k), 1, 10),
        s.mobile_ip is not null and random() < 0.25,
        case when m.k = 1 then 'new' when s.browser_id is not null and random() < 0.85 then 'token' else 'fingerprint' end,
        s.signs_up and ((s.kind = 'human' and m.k = 1) or (s.kind = 'bot' and random() < 0.3))
      from moments m join scale_visitors s using (idx)),
    new_visitors as (
      insert into visitors (id, profile, parts, model_version, network, workspace, counted, first_seen_at, last_seen_at, visits)
      select s.id, s.profile, s.parts, $4, s.home_network, 'default', true, a.first, a.last, a.visits
      from (select idx, min(at) as first, max(at) as last, count(*)::int as visits from moments group by idx) a
      join scale_visitors s using (idx))
    select count(*) filter (where at < $1::timestamptz - interval '90 days')::int as expired,
      count(distinct idx)::int as visitors
    from moments`,
    // A spike's visits: from the load's start to the end of its UTC day (the oldest day's table).
    [
      now.toISOString(),
      low,
      high,
      MODEL_VERSION,
      new Date(now.getTime() - LOADED_DAYS * 86_400_000).toISOString(),
      new Date(endOfFirstDay(now)).toISOString(),
    ],
  )
  const [row] = rows
  return { expired: Number(row?.expired ?? 0), visitors: Number(row?.visitors ?? 0) }
}

/**
 * Writes the events of the visits in [from, to), oldest first, with the sign-up decisions among
 * them and the accounts those created.
 */
async function writeEvents(
  client: LoadClient,
  [from, to]: readonly [Date, Date],
  siteKeys: string[],
): Promise<{ events: number; signups: number; stored: number; redated: number }> {
  const { rows } = await client.query<Row>(
    `with e as materialized (select * from scale_visits where at >= $1 and at < $2),
    packed as (select * from unnest($5::text[], $6::bytea[], $7::int[], $8::bytea[], $9::jsonb[])
      as p(request_id, signals, flags, ip_details, details)),
    new_details as (
      insert into ip_details (digest, details)
      select distinct on (ip_details) ip_details, details from packed where ip_details is not null
      on conflict do nothing),
    new_events as (
      insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, evidence, comeback,
        browser_id, ip, network, asn, country, user_agent, url, site_key, tag, linked_id, snapshot, durations, signals,
        ip_details, flags, suspect_score)
      select e.request_id, s.id, e.at, e.k > 1,
        case e.method when 'token' then 1 when 'fingerprint' then 0.9 + e.r1 * 0.09 else 0.96 + e.r1 * 0.04 end,
        e.method, x.evidence, e.k > 1 and e.r2 < 0.2, s.browser_id,
        case when e.mobile then s.mobile_ip else s.home_ip end,
        case when e.mobile then s.mobile_network else s.home_network end,
        case when e.mobile then s.mobile_asn else s.home_asn end,
        case when e.mobile then s.mobile_country else s.home_country end,
        s.user_agent,
        'https://' || ($3::text[])[s.site + 1] || case when e.signup then '/signup'
          else (array['/', '/pricing', '/products/' || (e.r3 * 500)::int, '/login', '/blog/', '/checkout'])[1 + (e.idx + e.k) % 6] end,
        ($4::text[])[s.site + 1],
        case when e.r3 < 0.03 then jsonb_build_object('campaign', 'autumn-' || (e.k % 4)) end,
        case when s.linked_id is not null and e.r2 < 0.6 then s.linked_id end,
        s.snapshot, s.durations,
        p.signals, p.ip_details, p.flags,
        case when e.mobile then s.mobile_score else s.home_score end
      from e join scale_visitors s using (idx) join packed p using (request_id)
      left join scale_evidence x on x.method = e.method and x.variant = (e.idx + e.k) % 8
      order by e.at),
    -- Each snapshot stored with its first event, or its last day moved to its latest event's, as
    -- identify's write does (component-snapshots.ts): in digest order, as identify writes them.
    used as (
      insert into component_snapshots (digest, components, last_day)
      select u.snapshot, x.stored, u.day
      from (select s.snapshot, max((e.at at time zone 'UTC')::date) as day
            from e join scale_visitors s using (idx) group by s.snapshot) as u
      join scale_snapshots x on x.digest = u.snapshot
      order by u.snapshot
      on conflict (digest) do update set last_day = excluded.last_day
      where component_snapshots.last_day < excluded.last_day
      returning xmax = 0 as inserted),
    attempts as materialized (
      select e.request_id, e.at, s.id, s.browser_id, ($4::text[])[s.site + 1] as site_key,
        case when e.mobile then s.mobile_ip else s.home_ip end as ip,
        case when s.kind = 'human' then s.email else 'x' || substr(md5(e.request_id), 1, 12) || '@mail-drop.example' end as email,
        x.outcome, x.reasons, x.outcome = 'challenge' and e.r2 < 0.5 as solved
      from e join scale_visitors s using (idx)
      join scale_decisions x on x.bot = (s.kind <> 'human') and e.r3 >= x.low and e.r3 < x.high
      where e.signup),
    new_decisions as (
      insert into signup_decisions (request_id, visitor_id, site_key, ip, email, outcome, reasons, challenge_solved, account_id, created_at)
      select request_id, id, site_key, ip, email, outcome, reasons, solved,
        case when outcome = 'allow' or solved then 'acct_' || substr(md5(request_id), 1, 12) end, at
      from attempts order by at),
    new_accounts as (
      insert into accounts (id, email, email_normalised, name, password_hash, visitor_id, device_mark, browser_id, created_at)
      select 'acct_' || substr(md5(request_id), 1, 12), email, lower(email), initcap(split_part(email, '.', 1)),
        '$argon2id$v=19$m=19456,t=2,p=1$' || substr(md5('salt' || request_id), 1, 22) || '$'
          || substr(md5('hash' || request_id) || md5(request_id), 1, 43),
        id, case when at > now() - interval '24 hours' then substr(md5('mark' || request_id), 1, 32) end,
        case when at > now() - interval '24 hours' then browser_id end, at
      from attempts where outcome = 'allow' or solved order by at)
    select (select count(*) from e)::int as events, (select count(*) from attempts)::int as signups,
      (select count(*) filter (where inserted) from used)::int as stored,
      (select count(*) filter (where not inserted) from used)::int as redated`,
    [
      from.toISOString(),
      to.toISOString(),
      SITE_HOSTS,
      siteKeys,
      ...(await packedSignals(client, [from, to])),
    ],
  )
  const [row] = rows
  return {
    events: Number(row?.events ?? 0),
    signups: Number(row?.signups ?? 0),
    stored: Number(row?.stored ?? 0),
    redated: Number(row?.redated ?? 0),
  }
}

/**
 * The signals of the visits in [from, to), packed as identify packs them (packed-signals.ts), and their
 * flags: composed in SQL from the visitor's device and network signals and the visit's velocities,
 * packed here (PostgreSQL cannot deflate against a dictionary).
 */
async function packedSignals(client: LoadClient, [from, to]: readonly [Date, Date]) {
  const { rows } = await client.query<{ request_id: string; signals: string } & SignalsRow>(
    `select e.request_id, (${EVENT_SIGNALS})::text as signals,
      case when e.mobile then s.mobile_ip else s.home_ip end as ip,
      case when e.mobile then s.mobile_network else s.home_network end as network,
      case when e.mobile then s.mobile_asn else s.home_asn end as asn,
      case when e.mobile then s.mobile_country else s.home_country end as country
    from scale_visits e join scale_visitors s using (idx) join scale_devices d using (device_class)
    where e.at >= $1 and e.at < $2`,
    [from.toISOString(), to.toISOString()],
  )
  const signals = rows.map((row) => inServerOrder(JSON.parse(row.signals) as StoredSignals))
  const details = signals.map(ipDetailsOf)
  return [
    rows.map((row) => row.request_id),
    signals.map((value, index) =>
      packSignals(value, {
        ...(rows[index] as Omit<SignalsRow, 'details'>),
        details: details[index]?.details ?? null,
      }),
    ),
    signals.map(flagsOf),
    details.map((found) => found?.digest ?? null),
    details.map((found) => (found ? JSON.stringify(found.details) : null)),
  ]
}

/** An event's signals in SQL, over the visit `e`, its visitor `s` and the visitor's device class `d`. */
const EVENT_SIGNALS = `d.signals || case when e.mobile then s.mobile_signals else s.home_signals end || jsonb_build_object(
    'velocity', jsonb_build_object('reasons', '[]'::jsonb, 'result', jsonb_build_object(
      'events', jsonb_build_object('5m', 1, '1h', 1 + e.k % 3, '24h', 1 + e.k % 7),
      'distinctIps', jsonb_build_object('5m', 1, '1h', 1, '24h', case when s.mobile_ip is null then 1 else 2 end),
      'distinctLinkedIds', jsonb_build_object('24h', case when s.linked_id is null then 0 else 1 end))),
    'ipVelocity', jsonb_build_object('reasons', '[]'::jsonb, 'result', jsonb_build_object(
      'address', jsonb_build_object(
        'events', jsonb_build_object('5m', 1, '1h', 1 + e.k % 4, '24h', 2 + e.k % 9),
        'visitors', jsonb_build_object('1h', 1, '24h', 1 + e.idx % 3),
        'accounts', jsonb_build_object('1h', 0, '24h', case when s.linked_id is null then 0 else 1 end)),
      'network', jsonb_build_object(
        'prefix', case when e.mobile then s.mobile_network else s.home_network end,
        'visitors', jsonb_build_object('1h', 1 + e.idx % 2, '24h', 2 + e.idx % 11),
        'accounts', jsonb_build_object('1h', 0, '24h', e.idx % 2)))))`
