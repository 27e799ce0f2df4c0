import 'server-only'
import { type SQL, sql } from 'drizzle-orm'
import type { NetworkType, Overview, Range } from '@/contracts/console'
import { type Database, selectRows } from '../db/client'

const ranges = {
  '24h': { interval: '24 hours', unit: 'hour' },
  '7d': { interval: '7 days', unit: 'day' },
  '30d': { interval: '30 days', unit: 'day' },
} as const

/** Figures and a time series of identifications over the chosen range. */
export async function readOverview({ db, range }: { db: Database; range: Range }): Promise<Overview> {
  const { interval, unit } = ranges[range]
  const since = sql`now() - ${interval}::interval`
  const [totals] = await selectRows(
    db,
    {
      identifications: sql<number>`count(*)::int`,
      visitors: sql<number>`count(distinct visitor_id)::int`,
      returning: sql<number>`count(*) filter (where visitor_found)::int`,
      bots: sql<number>`count(*) filter (where signals->'bot'->>'result' = 'bad')::int`,
    },
    (select) => sql`select ${select} from events where created_at >= ${since}`,
  )
  // Hours and days of UTC, as timestamps: read like every other moment (ISO 8601).
  const bucket = sql`date_trunc(${unit}, created_at at time zone 'UTC') at time zone 'UTC'`
  const series = await selectRows(
    db,
    {
      bucket: sql<string>`coalesce(i.bucket, d.bucket)`,
      identifications: sql<number>`coalesce(i.identifications, 0)`,
      visitors: sql<number>`coalesce(i.visitors, 0)`,
      bots: sql<number>`coalesce(i.bots, 0)`,
      allow: sql<number>`coalesce(d.allow, 0)`,
      challenge: sql<number>`coalesce(d.challenge, 0)`,
      deny: sql<number>`coalesce(d.deny, 0)`,
    },
    (select) => sql`with identifications as (
        select ${bucket} as bucket, count(*)::int as identifications, count(distinct visitor_id)::int as visitors,
          count(*) filter (where signals->'bot'->>'result' = 'bad')::int as bots
        from events where created_at >= ${since} group by 1),
      decisions as (
        select ${bucket} as bucket, count(*) filter (where outcome = 'allow')::int as allow,
          count(*) filter (where outcome = 'challenge')::int as challenge,
          count(*) filter (where outcome = 'deny')::int as deny
        from signup_decisions where created_at >= ${since} group by 1)
      select ${select} from identifications i full join decisions d on d.bucket = i.bucket order by 1`,
  )
  const [signups] = await selectRows(
    db,
    {
      allow: sql<number>`count(*) filter (where outcome = 'allow')::int`,
      challenge: sql<number>`count(*) filter (where outcome = 'challenge')::int`,
      deny: sql<number>`count(*) filter (where outcome = 'deny')::int`,
    },
    (select) => sql`select ${select} from signup_decisions where created_at >= ${since}`,
  )
  const identifications = totals?.identifications ?? 0
  const networks = await readNetworks(db, since)
  return {
    range,
    totals: {
      identifications,
      visitors: totals?.visitors ?? 0,
      returningShare: identifications === 0 ? 0 : (totals?.returning ?? 0) / identifications,
      bots: totals?.bots ?? 0,
    },
    series,
    signups: signups ?? { allow: 0, challenge: 0, deny: 0 },
    networks,
  }
}

/** The countries listed, most identifications first (a null code: addresses no database places). */
const TOP_COUNTRIES = 8

/** Identifications and their sign-up decisions by network type and by country (NetworkType). */
async function readNetworks(db: Database, since: SQL): Promise<Overview['networks']> {
  const signal = (name: string) => sql.raw(`e.signals->'${name}'->>'result'`)
  const place = sql`e.signals->'ipInfo'->'result'`
  const rows = await selectRows(
    db,
    {
      type: sql<NetworkType | null>`type`,
      country: sql<string | null>`country`,
      byType: sql<boolean>`grouping(type) = 0`,
      identifications: sql<number>`count(*)::int`,
      allow: sql<number>`count(*) filter (where outcome = 'allow')::int`,
      challenge: sql<number>`count(*) filter (where outcome = 'challenge')::int`,
      deny: sql<number>`count(*) filter (where outcome = 'deny')::int`,
    },
    (select) => sql`select ${select} from (
        select ${place}->>'countryCode' as country, d.outcome, case
            when (${signal('tor')})::boolean then 'tor'
            when (${signal('vpn')})::boolean and e.signals->'vpn'->>'confidence' <> 'low' then 'vpn'
            when (${signal('datacenter')})::boolean then 'datacenter'
            when ${place}->>'countryCode' is not null or ${place}->>'asn' is not null then 'residential'
            else 'unknown' end as type
        from events e left join signup_decisions d on d.request_id = e.request_id
        where e.created_at >= ${since}) as classed
      group by grouping sets ((type), (country))
      order by identifications desc, type, country`,
  )
  const breakdown = ({ identifications, allow, challenge, deny }: (typeof rows)[number]) => ({
    identifications,
    allow,
    challenge,
    deny,
  })
  return {
    byType: rows.flatMap((row) => (row.byType && row.type ? [{ type: row.type, ...breakdown(row) }] : [])),
    byCountry: rows
      .filter((row) => !row.byType)
      .slice(0, TOP_COUNTRIES)
      .map((row) => ({ country: row.country, ...breakdown(row) })),
  }
}
