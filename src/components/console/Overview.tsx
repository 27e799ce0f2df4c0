'use client'

import { useState } from 'react'
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { OverviewPoint, Range } from '@/contracts/console'
import { formatBucket, formatCount, formatPercent } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote } from '../Notes'
import { useTimeZone } from '../time-zone'
import { withEmptyBuckets } from './chart-buckets'
import { chartColors } from './chart-colors'
import styles from './console.module.css'
import { NetworkBreakdown } from './NetworkBreakdown'
import { SegmentedChoice } from './SegmentedChoice'
import { usePolling } from './usePolling'

const rangeLabels: Record<Range, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
}

/** The chart's areas, drawn in this order: totals first, then sign-up outcomes. */
const chartSeries: {
  key: Exclude<keyof OverviewPoint, 'bucket'>
  name: string
  color: string
  fillAlpha: string
}[] = [
  { key: 'identifications', name: 'Identifications', color: chartColors.identifications, fillAlpha: '33' },
  { key: 'visitors', name: 'Visitors', color: chartColors.visitors, fillAlpha: '33' },
  { key: 'bots', name: 'Bots', color: chartColors.bots, fillAlpha: '33' },
  { key: 'allow', name: 'Sign-ups allowed', color: chartColors.allow, fillAlpha: '22' },
  { key: 'challenge', name: 'Challenged', color: chartColors.challenge, fillAlpha: '22' },
  { key: 'deny', name: 'Denied', color: chartColors.deny, fillAlpha: '22' },
]

/** Totals and the time series, refreshed every ten seconds. */
export function Overview({ site }: { site: string | null }) {
  const [range, setRange] = useState<Range>('24h')
  const { timeZone } = useTimeZone()
  const { loaded } = usePolling('GET /api/console/overview', { query: { range, ...(site && { site }) } })

  return (
    <section aria-labelledby="overview-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="overview-heading">Overview</h2>
        <SegmentedChoice
          legend="Time range"
          name="range"
          options={(Object.keys(rangeLabels) as Range[]).map((value) => ({ value, label: value }))}
          value={range}
          onChange={setRange}
        />
      </div>
      <LoadedView loaded={loaded} loading="Loading figures…">
        {(data) => (
          <>
            <dl className={styles.figures} aria-label={rangeLabels[range]}>
              <Figure label="Identifications" value={data.totals.identifications} />
              <Figure label="Unique visitors" value={data.totals.visitors} />
              <Figure label="Returning" value={formatPercent(data.totals.returningShare)} />
              <Figure label="Bots" value={data.totals.bots} tone="danger" />
              <Figure label="Sign-ups allowed" value={data.signups.allow} tone="ok" />
              <Figure label="Challenged" value={data.signups.challenge} tone="warn" />
              <Figure label="Denied" value={data.signups.deny} tone="danger" />
            </dl>
            <div className={`card ${styles.chart}`}>
              {data.series.length === 0 ? (
                <EmptyNote>
                  No identifications in this range yet. Open /device-fingerprint to make one.
                </EmptyNote>
              ) : (
                <ResponsiveContainer width="100%" height={260}>
                  <AreaChart
                    data={withEmptyBuckets(data.series, data.range, Date.now())}
                    margin={{ top: 8, right: 8, left: -16, bottom: 0 }}
                    // Its name where keyboard focus lands on it (arrow keys step through its points).
                    title={`${chartSeries.map((series) => series.name).join(', ')}, ${rangeLabels[range].toLowerCase()}, by ${range === '24h' ? 'hour' : 'day'}`}
                  >
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                    <XAxis
                      dataKey="bucket"
                      tickFormatter={(value: string) =>
                        formatBucket(value, range === '24h' ? 'hour' : 'day', { timeZone })
                      }
                      stroke="var(--muted)"
                      fontSize={12}
                    />
                    <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={12} />
                    <Tooltip
                      formatter={(value) => formatCount(Number(value))}
                      labelFormatter={(value) =>
                        formatBucket(String(value), range === '24h' ? 'hour' : 'day', { timeZone })
                      }
                    />
                    <Legend />
                    {chartSeries.map((series) => (
                      <Area
                        key={series.key}
                        type="monotone"
                        dataKey={series.key}
                        name={series.name}
                        stroke={series.color}
                        fill={`${series.color}${series.fillAlpha}`}
                      />
                    ))}
                  </AreaChart>
                </ResponsiveContainer>
              )}
            </div>
            <NetworkBreakdown networks={data.networks} />
          </>
        )}
      </LoadedView>
    </section>
  )
}

function Figure({
  label,
  value,
  tone,
}: {
  label: string
  value: number | string
  tone?: 'ok' | 'warn' | 'danger'
}) {
  return (
    <div className={`tile ${styles.figure} ${tone ? styles[tone] : ''}`}>
      <dt>{label}</dt>
      <dd>{typeof value === 'number' ? formatCount(value) : value}</dd>
    </div>
  )
}
