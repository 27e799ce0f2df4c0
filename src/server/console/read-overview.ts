import 'server-only'
import { sql } from 'drizzle-orm'
import type { NetworkType, Overview, Range } from '@/contracts/console'
import { type Database, selectRows } from '../db/client'
import { VisitorSketch } from './visitor-sketch'

const ranges = {
  '24h': { interval: '24 hours', unit: 'hour' },
  '7d': { interval: '7 days', unit: 'day' },
  '30d': { interval: '30 days', unit: 'day' },
} as const

/** The countries listed, most identifications first (a null code: addresses no database places). */
const TOP_COUNTRIES = 8

/**
 * Figures and a time series over the chosen range, from the rollups kept as events and sign-up
 * decisions are stored (db/schema/rollups.ts): no raw event is read, however many there are. The
 * range starts at the beginning of the UTC hour (24 hours) or day (7 and 30 days) it reaches back to.
 */
export async function readOverview({
  db,
  range,
  site,
}: {
  db: Database
  range: Range
  /** One site's public key; all sites when absent. */
  site?: string
}): Promise<Overview> {
  const ofSite = site === undefined ? sql`` : sql`and site_key = ${site}`
  const { interval, unit } = ranges[range]
  // Older hours are kept by the day (compact-sketches.ts): ranges by the day start at a day's start.
  // A subquery, so it is computed once: as a plain filter it was computed for every rollup row read
  // (on the embedded database, 19 k rows of a 30-day range: 35 ms of a 70 ms query, against 7).
  const since =
    unit === 'hour'
      ? sql`(select tessera_hour(now() - ${interval}::interval))`
      : sql`(select date_trunc('day', (now() - ${interval}::interval) at time zone 'UTC') at time zone 'UTC')`
  // Hours and days of UTC, as timestamps: read like every other moment (ISO 8601). Binned from a UTC
  // midnight, with no time zone looked up for each row.
  const bucket = sql`date_bin(${`1 ${unit}`}::interval, hour, timestamptz '2000-01-01 00:00:00+00')`
  // The figures and the visitors read side by side (two connections on PostgreSQL).
  const figures = selectRows(
    db,
    {
      bucket: sql<string | null>`bucket`,
      type: sql<NetworkType | null>`network_type`,
      country: sql<string | null>`country`,
      grouping: sql<number>`grouping(bucket, network_type, country)`,
      identifications: sql<number>`sum(identifications)::float8`,
      returned: sql<number>`sum(returned)::float8`,
      bots: sql<number>`sum(bots)::float8`,
      allow: sql<number>`sum(allow)::float8`,
      challenge: sql<number>`sum(challenge)::float8`,
      deny: sql<number>`sum(deny)::float8`,
    },
    // Sums as float8: exact far beyond int's 2^31, and read as numbers by both drivers.
    (select) => sql`select ${select} from (
        select ${bucket} as bucket, network_type, country, identifications, returned, bots, allow, challenge, deny
        from event_rollups where hour >= ${since} ${ofSite}) as rolled
      group by grouping sets ((bucket), (network_type), (country), ())
      order by identifications desc, bucket, network_type, country`,
  )
  const [rows, visitors] = await Promise.all([figures, readVisitors(db, since, bucket, ofSite)])
  // grouping(): a bit per column left out, bucket's the highest.
  const byBucket = rows.filter((row) => row.grouping === 0b011)
  const byType = rows.filter((row) => row.grouping === 0b101)
  const byCountry = rows.filter((row) => row.grouping === 0b110)
  const total = rows.find((row) => row.grouping === 0b111)

  const identifications = total?.identifications ?? 0
  const outcomes = ({ allow, challenge, deny }: (typeof rows)[number]) => ({ allow, challenge, deny })
  const breakdown = (row: (typeof rows)[number]) => ({
    identifications: row.identifications,
    ...outcomes(row),
  })
  return {
    range,
    totals: {
      identifications,
      visitors: visitors.total,
      returningShare: identifications === 0 ? 0 : (total?.returned ?? 0) / identifications,
      bots: total?.bots ?? 0,
    },
    series: byBucket
      .flatMap((row) => (row.bucket ? [{ ...row, bucket: row.bucket }] : []))
      .sort((a, b) => Date.parse(a.bucket) - Date.parse(b.bucket))
      .map((row) => ({
        bucket: row.bucket,
        identifications: row.identifications,
        visitors: visitors.byBucket.get(Date.parse(row.bucket)) ?? 0,
        bots: row.bots,
        ...outcomes(row),
      })),
    // The () grouping set answers a row even over no rollups at all, its sums NULL.
    signups: { allow: total?.allow ?? 0, challenge: total?.challenge ?? 0, deny: total?.deny ?? 0 },
    networks: {
      byType: byType
        .filter((row) => row.identifications > 0 && row.type)
        .map((row) => ({ type: row.type as NetworkType, ...breakdown(row) })),
      byCountry: byCountry
        .filter((row) => row.identifications > 0)
        .slice(0, TOP_COUNTRIES)
        .map((row) => ({ country: row.country || null, ...breakdown(row) })),
    },
  }
}

/** Distinct visitors per bucket and over the range: the hours' sketches merged. */
async function readVisitors(
  db: Database,
  since: ReturnType<typeof sql>,
  bucket: ReturnType<typeof sql>,
  ofSite: ReturnType<typeof sql>,
) {
  // As hex text: the embedded driver reads bytea a byte at a time (bench:scale's 30-day range at 1 M
  // events, 447 sketches of 646 KB: 116 ms as bytea, 11 ms as text).
  const sketches = await selectRows(
    db,
    { bucket: sql<string>`${bucket}`, sketch: sql<string>`encode(sketch, 'hex')` },
    (select) => sql`select ${select} from visitor_sketches where hour >= ${since} ${ofSite}`,
  )
  const total = new VisitorSketch()
  const buckets = new Map<number, VisitorSketch>()
  for (const row of sketches) {
    const bytes = Buffer.from(row.sketch, 'hex')
    const at = Date.parse(row.bucket)
    buckets.set(at, (buckets.get(at) ?? new VisitorSketch()).mergeEncoded(bytes))
    total.mergeEncoded(bytes)
  }
  return {
    total: total.estimate(),
    byBucket: new Map([...buckets].map(([at, sketch]) => [at, sketch.estimate()])),
  }
}
