import type { CollectResult } from '@/agent'
import { formatBits, formatCount, formatDuration, formatOneIn } from './format'
import { ScrollFrame } from './ScrollFrame'
import styles from './SignalTable.module.css'
import { Cell, Row, RowHeader, Table } from './Table'
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
      {/* Outside the table's frame, which may scroll sideways when the table is wider: the sentence stays whole. */}
      {result.mainThread && (
        <p className={styles.timing}>
          Collection took {formatDuration(result.duration)}: {formatDuration(result.mainThread.total)} of it
          on the page's main thread, never more than {formatDuration(result.mainThread.longest)} at a stretch;
          the rest waited for the browser with the page free.
        </p>
      )}
      <ScrollFrame label="Collected values, scrolling sideways">
        <Table
          caption={`${entries.length} signals collected in ${formatDuration(result.duration)}`}
          columns={['Signal', 'Value', 'How identifying', { name: 'Time', className: tables.number }]}
        >
          {entries.map(([name, component]) => {
            const stats = byName.get(name)
            const text = 'value' in component ? formatValue(component.value) : ''
            return (
              <Row key={name}>
                <RowHeader>{name}</RowHeader>
                <Cell label="Value" className={`${tables.long} ${styles.value}`}>
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
                </Cell>
                <Cell label="How identifying">
                  {stats ? (
                    <span
                      title={`${formatCount(stats.sharedBy)} of ${formatCount(stats.total)} visitors share this value`}
                    >
                      {formatBits(stats.bits)} · {formatOneIn(stats.sharedBy, stats.total)}
                    </span>
                  ) : (
                    <span className={styles.muted}>—</span>
                  )}
                </Cell>
                <Cell label="Time" className={tables.number}>
                  {formatDuration(component.duration)}
                </Cell>
              </Row>
            )
          })}
        </Table>
      </ScrollFrame>
    </>
  )
}
