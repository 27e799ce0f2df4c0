import { sql } from 'drizzle-orm'
import pg, { Client } from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type DatabaseHandle, PREPARED_MARK, queryRows } from '@/server/db/client'
import { ensureEventPartitions } from '@/server/db/event-partitions'
import { flagsOf } from '@/server/db/schema'
import { openTestDatabase } from '../../../tests/support/test-database'
import type { ApiCaller } from '../api/authenticate-api-key'
import { readEvent } from '../api/read-event'
import { readVisitorHistory } from '../api/read-visitor-history'
import { searchEvents } from '../api/search-events'
import { listNetworkVisitors } from '../console/list-network-visitors'
import { listRecentEvents } from '../console/list-recent-events'
import { listSignupDecisions } from '../console/list-signup-decisions'
import { findVisitorId, readVisitorPanel } from '../console/look-up-visitor'
import { readOverview } from '../console/read-overview'
import { listReviewQueue } from '../console/review-signups'
import { toFingerprintEvents } from '../fingerprint/read-fingerprint-events'
import { purgeExpiredData } from '../retention/purge-expired-data'

/** Tables that grow with traffic: no answer may read one of them whole. */
/** The flags (event-flags.ts) of the loaded events' signals: a bot result, Tor or not, no VPN of low confidence. */
const flags = (bot: 'bad' | 'notDetected', tor: boolean) =>
  flagsOf({
    bot: { result: bot, reasons: [] },
    tor: { result: tor, reasons: [] },
    vpn: {
      result: false,
      confidence: 'low',
      reasons: [],
      details: {
        originTimezone: null,
        originCountry: 'DE',
        methods: { timezoneMismatch: false, publicVpn: false, relay: false },
      },
    },
  })

const GROWING = new Set([
  'events',
  'visitors',
  'visitor_keys',
  'signup_decisions',
  'accounts',
  'component_snapshots',
])

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] }
/**
 * Events' day tables (event-partitions.ts) read as events. A day's table that holds little (the
 * month's first, partial day here; today's, early in the day) may be read whole: a few pages, and
 * the planner rightly prefers that to probing an index twenty times. A full day's may not.
 */
const SMALL_DAY = 1_000
const tableOf = (relation: string) =>
  /^events_([0-9]{8}|before_partitioning)$/.test(relation) ? 'events' : relation
const scansOf = (node: PlanNode, small: Set<string>): PlanNode[] => {
  const relation = node['Relation Name'] ?? ''
  const whole = node['Node Type'] === 'Seq Scan' && GROWING.has(tableOf(relation)) && !small.has(relation)
  return [...(whole ? [node] : []), ...(node.Plans ?? []).flatMap((child) => scansOf(child, small))]
}

const driverUtils = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils

/** The generic plan PostgreSQL keeps for a prepared statement, whatever its parameters. */
async function explainGeneric(client: Client, query: string, params: unknown[]) {
  await client.query('set plan_cache_mode = force_generic_plan')
  await client.query(`prepare planned as ${query}`)
  try {
    // EXECUTE takes its arguments as literals, written as the driver would send them.
    const args = params
      .map((value) => {
        const text = driverUtils.prepareValue(value)
        return text === null || text === undefined ? 'null' : client.escapeLiteral(String(text))
      })
      .join(', ')
    return await client.query(`explain (format json) execute planned${args ? `(${args})` : ''}`)
  } finally {
    await client.query('deallocate planned')
  }
}

const postgresUrl = inject('postgresUrl')

// The plans PostgreSQL chooses for every console and API answer, on a database of a busy site's
// shape (tens of thousands of events over 30 days, three sites, sign-ups), after ANALYZE: each
// statement must reach the growing tables through an index.
describe.runIf(postgresUrl)('query plans on PostgreSQL', () => {
  const statements: { query: string; params: unknown[] }[] = []
  let handle: DatabaseHandle & { url?: string }
  const site = 'pk_plans_a'
  const caller: ApiCaller = { keyId: 'k', siteId: 's', sitePublicKey: site }

  beforeAll(async () => {
    handle = await openTestDatabase('postgres', postgresUrl, {
      onQuery: (query, params) => statements.push({ query, params }),
    })
    const { db } = handle
    // As a server that has run for the month: a table for each of its days (made hourly, a week ahead).
    await ensureEventPartitions(db, new Date(Date.now() - 32 * 86_400_000), new Date())
    await db.execute(
      sql`insert into component_snapshots values ('99914b93-2bd3-7a50-b983-c5e7c90ae93b', '{}')`,
    )
    await db.execute(sql`insert into visitors (id, profile, last_seen_at)
      select 'plan-v' || n, '{}', now() - (n % 30) * interval '1 day' from generate_series(1, 8000) n`)
    await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method,
        ip, network, asn, site_key, linked_id, signals, flags, suspect_score, snapshot, durations)
      select 'plan-e' || n, 'plan-v' || (1 + (n * 7919) % 8000), now() - (n % 43200) * interval '1 minute',
        n % 3 > 0, 0.9, 'fingerprint', '198.51.' || (n % 200) || '.' || (n % 250), '198.51.' || (n % 200) || '.0/24',
        64500 + n % 40, 'pk_plans_' || (array['a', 'b', 'c'])[1 + n % 3],
        case when n % 5 = 0 then 'account-' || (n % 3000) end,
        convert_to(jsonb_build_object('bot', jsonb_build_object('result', case when n % 50 = 0 then 'bad' else 'notDetected' end),
          'tor', jsonb_build_object('result', n % 97 = 0), 'vpn', jsonb_build_object('result', false, 'confidence', 'low', 'reasons', '[]'::jsonb,
            'details', jsonb_build_object('originTimezone', null, 'originCountry', 'DE',
              'methods', jsonb_build_object('timezoneMismatch', false, 'publicVpn', false, 'relay', false))),
          'ipInfo', jsonb_build_object('result', jsonb_build_object('asn', 64500 + n % 40, 'countryCode', 'DE')))::text, 'UTF8'),
        case when n % 50 = 0 and n % 97 = 0 then ${flags('bad', true)}::int when n % 50 = 0 then ${flags('bad', false)}::int
          when n % 97 = 0 then ${flags('notDetected', true)}::int else ${flags('notDetected', false)}::int end,
        n % 20, '99914b93-2bd3-7a50-b983-c5e7c90ae93b', ''
      from generate_series(1, 60000) n`)
    await db.execute(sql`insert into signup_decisions (request_id, visitor_id, ip, email, outcome, reasons, created_at)
      select 'plan-e' || n, 'plan-v' || (1 + (n * 7919) % 8000), '198.51.' || (n % 200) || '.1', 'user' || n || '@example.com',
        (array['allow', 'challenge', 'deny'])[1 + n % 3], '[]', now() - (n % 43200) * interval '1 minute'
      from generate_series(1, 60000, 10) n`)
    await db.execute(sql`insert into accounts (id, email, email_normalised, name, password_hash, visitor_id)
      select 'plan-a' || n, 'User' || n || '@example.com', 'user' || n || '@example.com', 'User', 'x', 'plan-v' || n
      from generate_series(1, 3000) n`)
    await db.execute(sql`analyze`)
    statements.length = 0
  })
  afterAll(() => handle?.close())

  it('find a visitor by its ID without reading any day table of events', async () => {
    const { db } = handle
    statements.length = 0
    expect(await findVisitorId({ db, query: 'plan-v7' })).toBe('plan-v7')
    expect(statements.map(({ query }) => query).filter((query) => /\bevents\b/.test(query))).toEqual([])
    // Anything else is still looked for among the events.
    statements.length = 0
    await findVisitorId({ db, query: 'account-42' })
    expect(statements.some(({ query }) => /\bevents\b/.test(query))).toBe(true)
  })

  it('keep an idle connection open, with what it has loaded and planned', async () => {
    const { db } = handle
    const backend = async () =>
      (await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`))[0]?.pid
    const before = await backend()
    // Longer than node-postgres's default idle time-out (10 s), which closed it.
    await new Promise((resolve) => setTimeout(resolve, 11_000))
    expect(await backend()).toBe(before)
  }, 20_000)

  it('reach every growing table through an index, for every console and API answer', async () => {
    const { db } = handle
    const [busy] = await queryRows<{ visitor_id: string }>(
      db,
      sql`select visitor_id from events group by 1 order by count(*) desc limit 1`,
    )
    const visitorId = busy?.visitor_id ?? ''
    statements.length = 0
    const answers: Record<string, () => Promise<unknown>> = {
      'overview 24h': () => readOverview({ db, range: '24h' }),
      'overview 30d': () => readOverview({ db, range: '30d' }),
      'recent events': async () => {
        const page = await listRecentEvents({ db })
        const last = page.events.at(-1)
        if (last)
          await listRecentEvents({
            db,
            cursor: { createdAt: last.createdAt, requestId: last.requestId },
          })
      },
      'recent bots': () => listRecentEvents({ db, filters: { signal: 'bot' } }),
      // A flag no event has: found by its partial index, not by reading every event newest first.
      'events: a flag no event has': () => listRecentEvents({ db, filters: { signal: 'privateMode' } }),
      'events by score range and day': () =>
        listRecentEvents({
          db,
          filters: {
            minScore: 10,
            maxScore: 20,
            from: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
          },
        }),
      'events of a site by linked ID': () =>
        listRecentEvents({ db, filters: { site: caller.sitePublicKey, linkedId: 'account-42' } }),
      'overview of a site': () => readOverview({ db, range: '30d', site: caller.sitePublicKey }),
      'decisions of a site': () =>
        listSignupDecisions({ db, filters: { outcome: 'all', site: caller.sitePublicKey } }),
      'decisions by outcome and email domain': () =>
        listSignupDecisions({ db, filters: { outcome: 'deny', email: '@example.com' } }),
      'look-up by visitor ID': () => findVisitorId({ db, query: visitorId }),
      'look-up by linked ID': () => findVisitorId({ db, query: 'account-42' }),
      'look-up by email': () => findVisitorId({ db, query: 'User42@example.com' }),
      'look-up by address': () => findVisitorId({ db, query: '198.51.7.7' }),
      'visitor panel': () => readVisitorPanel({ db, visitorId }),
      'network look-up': () => listNetworkVisitors({ db, query: '198.51.0.0/16' }),
      'address look-up': () => listNetworkVisitors({ db, query: '198.51.7.7' }),
      'sign-up decisions': () => listSignupDecisions({ db }),
      'review queue': () => listReviewQueue({ db }),
      'search, no filter': () => searchEvents({ db, caller, filter: { limit: 20 } }),
      'search by visitor': () => searchEvents({ db, caller, filter: { limit: 20, visitorId } }),
      'search by linked ID': () =>
        searchEvents({ db, caller, filter: { limit: 20, linkedId: 'account-42' } }),
      'search by address': () => searchEvents({ db, caller, filter: { limit: 20, ip: '198.51.7.7' } }),
      'search by bot and time': () =>
        searchEvents({
          db,
          caller,
          filter: { limit: 20, bot: ['bad'], since: new Date(Date.now() - 7 * 86_400_000).toISOString() },
        }),
      'search oldest first by score and signal': () =>
        searchEvents({
          db,
          caller,
          filter: { limit: 20, oldestFirst: true, minSuspectScore: 10, signals: { tor: true } },
        }),
      'search by AS': () => searchEvents({ db, caller, filter: { limit: 20, asn: 64_510 } }),
      '/v4 search': async () => {
        const page = await searchEvents({ db, caller, filter: { limit: 20 } })
        await toFingerprintEvents(db, page.events)
      },
      'event by request ID': () => readEvent({ db, caller, requestId: 'plan-e3' }),
      // Nothing here is past 90 days: the pass reads and deletes nothing, by index.
      'retention pass': () => purgeExpiredData({ db, days: 90 }),
      'visitor history': () => readVisitorHistory({ db, caller, visitorId, limit: 20 }),
    }
    // Events are stored by day: the month's rows are in its days' tables.
    const tables = await queryRows<{ name: string; rows: number }>(
      db,
      sql`select c.relname as name, (select count(*) from events e where e.tableoid = c.oid)::int as rows
          from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'events'::regclass`,
    )
    expect(tables.filter((table) => /^events_[0-9]{8}$/.test(table.name)).length).toBeGreaterThanOrEqual(38)
    const small = new Set(tables.filter((table) => table.rows < SMALL_DAY).map((table) => table.name))
    expect(tables.filter((table) => table.rows >= SMALL_DAY).length).toBeGreaterThanOrEqual(29)
    const explainer = new Client({ connectionString: handle.url })
    await explainer.connect()
    const failures: string[] = []
    let preparedCount = 0
    try {
      for (const [answer, run] of Object.entries(answers)) {
        statements.length = 0
        await run()
        expect(statements.length, answer).toBeGreaterThan(0)
        for (const { query, params } of statements) {
          // A transaction's own statements (withGenericPlans: begin, set local, commit) read nothing.
          if (/^\s*(begin|commit|rollback|savepoint|release|set )/i.test(query)) continue
          // A prepared statement keeps a generic plan once it costs no more (client.ts): that plan is checked.
          if (query.startsWith(PREPARED_MARK)) preparedCount += 1
          const explained = query.startsWith(PREPARED_MARK)
            ? await explainGeneric(explainer, query, params)
            : await explainer.query(`explain (format json) ${query}`, params)
          const plan = (explained.rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan
          for (const scan of plan ? scansOf(plan, small) : [])
            failures.push(
              `${answer}: reads ${scan['Relation Name']} whole in ${query.replace(/\s+/g, ' ').slice(0, 160)}`,
            )
        }
      }
    } finally {
      await explainer.end()
    }
    expect(failures).toEqual([])
    expect(preparedCount).toBeGreaterThanOrEqual(10)
  })
})
