'use client'

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { NetworkType, Overview } from '@/contracts/console'
import { formatCount } from '../format'
import { EmptyNote } from '../Notes'
import { chartColors } from './chart-colors'
import styles from './console.module.css'

const typeLabels: Record<NetworkType, string> = {
  residential: 'Residential & business',
  datacenter: 'Data centre',
  vpn: 'VPN',
  tor: 'Tor',
  unknown: 'Unplaced address',
}

const bars = [
  { key: 'identifications', name: 'Identifications', color: chartColors.identifications, stack: undefined },
  { key: 'allow', name: 'Sign-ups allowed', color: chartColors.allow, stack: 'signups' },
  { key: 'challenge', name: 'Challenged', color: chartColors.challenge, stack: 'signups' },
  { key: 'deny', name: 'Denied', color: chartColors.deny, stack: 'signups' },
] as const

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' })

/** "Germany (DE)" for DE. (No flag: flag emoji are two letters in a box on Windows and without emoji fonts.) */
function countryLabel(code: string | null): string {
  if (!code) return 'Unplaced address'
  try {
    return `${regionNames.of(code) ?? code} (${code})`
  } catch {
    return code
  }
}

type Row = { label: string; identifications: number; allow: number; challenge: number; deny: number }

/** Identifications and sign-up decisions by network type and by country, as bars and as a table. */
export function NetworkBreakdown({ networks }: { networks: Overview['networks'] }) {
  if (networks.byType.length === 0) return null
  return (
    <div className={styles.breakdowns}>
      <BreakdownChart
        title="By network type"
        rowName="Network type"
        rows={networks.byType.map(({ type, ...counts }) => ({ label: typeLabels[type], ...counts }))}
      />
      <BreakdownChart
        title="By country"
        rowName="Country"
        rows={networks.byCountry.map(({ country, ...counts }) => ({
          label: countryLabel(country),
          ...counts,
        }))}
      />
    </div>
  )
}

/** `rowName` heads the column of row labels in the table screen readers read. */
function BreakdownChart({ title, rowName, rows }: { title: string; rowName: string; rows: Row[] }) {
  return (
    <figure className={`card ${styles.chart} ${styles.breakdown}`}>
      <figcaption>{title}</figcaption>
      {rows.length === 0 ? (
        <EmptyNote>Nothing in this range.</EmptyNote>
      ) : (
        <>
          <ResponsiveContainer width="100%" height={60 + rows.length * 44}>
            <BarChart
              data={rows}
              layout="vertical"
              margin={{ top: 4, right: 12, left: 8, bottom: 0 }}
              title={`Identifications and sign-up decisions ${title.toLowerCase()}`}
            >
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
              <XAxis type="number" allowDecimals={false} stroke="var(--muted)" fontSize={12} />
              <YAxis type="category" dataKey="label" width={150} stroke="var(--muted)" fontSize={12} />
              <Tooltip formatter={(value) => formatCount(Number(value))} />
              <Legend />
              {bars.map((bar) => (
                <Bar key={bar.key} dataKey={bar.key} name={bar.name} fill={bar.color} stackId={bar.stack} />
              ))}
            </BarChart>
          </ResponsiveContainer>
          {/* A table would keep its width inside a 1px box: the box clips it, off the page's scroll. */}
          <div className="visually-hidden">
            <table>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{rowName}</th>
                  {bars.map((bar) => (
                    <th key={bar.key} scope="col">
                      {bar.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.label}>
                    <th scope="row">{row.label}</th>
                    {bars.map((bar) => (
                      <td key={bar.key}>{formatCount(row[bar.key])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  )
}
