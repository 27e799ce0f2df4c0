'use client'

import { useState } from 'react'
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { Overview as OverviewData, Range } from '@/contracts/console'
import { formatBucket, formatCount, formatPercent } from '../format'
import { LoadedView } from '../LoadedView'
import styles from './console.module.css'
import { usePolling } from './usePolling'

const rangeLabels: Record<Range, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
}

/** Totals and the time series, refreshed every ten seconds. */
export function Overview() {
  const [range, setRange] = useState<Range>('24h')
  const { loaded } = usePolling<OverviewData>(`/api/console/overview?range=${range}`)

  return (
    <section aria-labelledby="overview-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="overview-heading">Overview</h2>
        <fieldset className={styles.segmented}>
          <legend className="visually-hidden">Time range</legend>
          {(Object.keys(rangeLabels) as Range[]).map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="range"
                value={value}
                checked={range === value}
                onChange={() => setRange(value)}
              />
              <span>{value}</span>
            </label>
          ))}
        </fieldset>
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
                <p className="muted">
                  No identifications in this range yet. Open /device-fingerprint to make one.
                </p>
              ) : (
                <ResponsiveContainer width="100%" height={260}>
                  <AreaChart data={data.series} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                    <XAxis
                      dataKey="bucket"
                      tickFormatter={(value: string) => formatBucket(value, range === '24h' ? 'hour' : 'day')}
                      stroke="var(--muted)"
                      fontSize={12}
                    />
                    <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={12} />
                    <Tooltip
                      labelFormatter={(value) =>
                        formatBucket(String(value), range === '24h' ? 'hour' : 'day')
                      }
                    />
                    <Legend />
                    <Area
                      type="monotone"
                      dataKey="identifications"
                      name="Identifications"
                      stroke="#4338ca"
                      fill="#4338ca33"
                    />
                    <Area
                      type="monotone"
                      dataKey="visitors"
                      name="Visitors"
                      stroke="#0e9384"
                      fill="#0e938433"
                    />
                    <Area type="monotone" dataKey="bots" name="Bots" stroke="#b42318" fill="#b4231833" />
                    <Area
                      type="monotone"
                      dataKey="allow"
                      name="Sign-ups allowed"
                      stroke="#067647"
                      fill="#06764722"
                    />
                    <Area
                      type="monotone"
                      dataKey="challenge"
                      name="Challenged"
                      stroke="#b54708"
                      fill="#b5470822"
                    />
                    <Area type="monotone" dataKey="deny" name="Denied" stroke="#912018" fill="#91201822" />
                  </AreaChart>
                </ResponsiveContainer>
              )}
            </div>
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
    <div className={`${styles.figure} ${tone ? styles[tone] : ''}`}>
      <dt>{label}</dt>
      <dd>{typeof value === 'number' ? formatCount(value) : value}</dd>
    </div>
  )
}
