import 'server-only'
import { sql } from 'drizzle-orm'
import type { Overview, OverviewPoint, Range } from '@/contracts/console'
import { type Database, queryRows } from '../db/client'

const ranges = {
  '24h': { interval: '24 hours', unit: 'hour' },
  '7d': { interval: '7 days', unit: 'day' },
  '30d': { interval: '30 days', unit: 'day' },
} as const

/** Figures and a time series of identifications over the chosen range. */
export async function readOverview({ db, range }: { db: Database; range: Range }): Promise<Overview> {
  const { interval, unit } = ranges[range]
  const since = sql`now() - ${interval}::interval`
  const [totals] = await queryRows<{
    identifications: number
    visitors: number
    returning: number
    bots: number
  }>(
    db,
    sql`select count(*)::int as identifications, count(distinct visitor_id)::int as visitors,
          count(*) filter (where visitor_found)::int as returning,
          count(*) filter (where signals->'bot'->>'result' = 'bad')::int as bots
        from events where created_at >= ${since}`,
  )
  const bucket = sql`to_char(date_trunc(${unit}, created_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`
  const series = await queryRows<OverviewPoint>(
    db,
    sql`with identifications as (
          select ${bucket} as bucket, count(*)::int as identifications, count(distinct visitor_id)::int as visitors,
            count(*) filter (where signals->'bot'->>'result' = 'bad')::int as bots
          from events where created_at >= ${since} group by 1),
        decisions as (
          select ${bucket} as bucket, count(*) filter (where outcome = 'allow')::int as allow,
            count(*) filter (where outcome = 'challenge')::int as challenge,
            count(*) filter (where outcome = 'deny')::int as deny
          from signup_decisions where created_at >= ${since} group by 1)
        select coalesce(i.bucket, d.bucket) as bucket, coalesce(i.identifications, 0) as identifications,
          coalesce(i.visitors, 0) as visitors, coalesce(i.bots, 0) as bots, coalesce(d.allow, 0) as allow,
          coalesce(d.challenge, 0) as challenge, coalesce(d.deny, 0) as deny
        from identifications i full join decisions d on d.bucket = i.bucket order by 1`,
  )
  const [signups] = await queryRows<{ allow: number; challenge: number; deny: number }>(
    db,
    sql`select count(*) filter (where outcome = 'allow')::int as allow,
          count(*) filter (where outcome = 'challenge')::int as challenge,
          count(*) filter (where outcome = 'deny')::int as deny
        from signup_decisions where created_at >= ${since}`,
  )
  const identifications = totals?.identifications ?? 0
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
  }
}
