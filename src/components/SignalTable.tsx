import type { CollectResult } from '@/agent'
import { formatBits, formatCount, formatDuration, formatOneIn } from './format'
import { ScrollFrame } from './ScrollFrame'
import styles from './SignalTable.module.css'
import tables from './Table.module.css'

export interface Uniqueness {
  component: string
  sharedBy: number
  total: number
  bits: number
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2)
}

/** Every collected signal: value (long ones folded), how identifying it is here, and its time. */
export function SignalTable({ result, uniqueness }: { result: CollectResult; uniqueness?: Uniqueness[] }) {
  const byName = new Map(uniqueness?.map((entry) => [entry.component, entry]))
  const entries = Object.entries(result.components)
  return (
    <>
      {/* Outside the table's frame, which scrolls sideways on a phone: the sentence stays whole. */}
      {result.mainThread && (
        <p className={styles.timing}>
          Collection took {formatDuration(result.duration)}: {formatDuration(result.mainThread.total)} of it
          on the page's main thread, never more than {formatDuration(result.mainThread.longest)} at a stretch;
          the rest waited for the browser with the page free.
        </p>
      )}
      <ScrollFrame label="Collected values, scrolling sideways">
        <table className={tables.table}>
          <caption>
            {entries.length} signals collected in {formatDuration(result.duration)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Signal</th>
              <th scope="col">Value</th>
              <th scope="col">How identifying</th>
              <th scope="col" className={tables.number}>
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([name, component]) => {
              const stats = byName.get(name)
              const text = 'value' in component ? formatValue(component.value) : ''
              return (
                <tr key={name}>
                  <th scope="row" className={tables.rowHeader}>
                    {name}
                  </th>
                  <td className={`${tables.long} ${styles.value}`}>
                    {'error' in component ? (
                      <span className={`${styles.tag} ${styles.error}`}>{component.error}</span>
                    ) : component.value === 'unsupported' ? (
                      <span className={styles.tag}>not supported</span>
                    ) : text.length > 80 || text.includes('\n') ? (
                      <details>
                        <summary>
                          <code>{text.replace(/\s+/g, ' ').slice(0, 60)}…</code>
                        </summary>
                        <pre>{text}</pre>
                      </details>
                    ) : (
                      <code>{text}</code>
                    )}
                  </td>
                  <td>
                    {stats ? (
                      <span
                        title={`${formatCount(stats.sharedBy)} of ${formatCount(stats.total)} visitors share this value`}
                      >
                        {formatBits(stats.bits)} · {formatOneIn(stats.sharedBy, stats.total)}
                      </span>
                    ) : (
                      <span className={styles.muted}>—</span>
                    )}
                  </td>
                  <td className={tables.number}>{formatDuration(component.duration)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </ScrollFrame>
    </>
  )
}
