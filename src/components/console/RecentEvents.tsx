'use client'

import { useState } from 'react'
import type { EventFilter } from '@/contracts/console'
import { FormField } from '../FormField'
import { formatPercent } from '../format'
import { LoadedView } from '../LoadedView'
import { signalTitle } from '../SmartSignals'
import tables from '../Table.module.css'
import { Time } from '../Time'
import { AddressCell } from './AddressCell'
import styles from './console.module.css'
import { ExportLinks } from './ExportLinks'
import { usePolling } from './usePolling'

/** The latest identifications, filterable, one page at a time. */
export function RecentEvents({
  signal,
  onSignal,
  onOpenVisitor,
  onOpenEvent,
}: {
  /** The filter, kept in the address (?signal=) so a reload or a shared link keeps it. */
  signal: EventFilter
  onSignal: (signal: EventFilter) => void
  onOpenVisitor: (visitorId: string) => void
  onOpenEvent: (requestId: string) => void
}) {
  const [cursors, setCursors] = useState<string[]>([])
  const cursor = cursors[cursors.length - 1]
  const { loaded } = usePolling('GET /api/console/events', { query: { signal, cursor } })

  return (
    <section aria-labelledby="events-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="events-heading">Recent events</h2>
        <span className={styles.row}>
          <ExportLinks query={{ kind: 'events', signal }} what="these events" />
          <FormField label="Show" layout="inline">
            {(control) => (
              <select
                {...control}
                value={signal}
                onChange={(event) => {
                  onSignal(event.target.value as EventFilter)
                  setCursors([])
                }}
              >
                <option value="all">All events</option>
                <option value="bot">Bots only</option>
                <option value="new">New visitors</option>
                <option value="returning">Returning visitors</option>
              </select>
            )}
          </FormField>
        </span>
      </div>
      <div className={tables.frame}>
        <LoadedView
          loaded={loaded}
          loading="Loading events…"
          isEmpty={(data) => data.events.length === 0}
          empty="No events match. Identifications appear here as they happen."
        >
          {(data) => (
            <table className={tables.table}>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Visitor</th>
                  <th scope="col">Confidence</th>
                  <th scope="col">IP</th>
                  <th scope="col">Signals</th>
                  <th scope="col">Score</th>
                </tr>
              </thead>
              <tbody>
                {data.events.map((event) => (
                  <tr key={event.requestId}>
                    <td>
                      <button
                        type="button"
                        className={styles.linkButton}
                        onClick={() => onOpenEvent(event.requestId)}
                      >
                        <Time iso={event.createdAt} />
                        <span className="visually-hidden">: event details</span>
                      </button>
                    </td>
                    <td>
                      <button
                        type="button"
                        className={styles.linkButton}
                        onClick={() => onOpenVisitor(event.visitorId)}
                      >
                        <code>{event.visitorId}</code>
                      </button>
                      {!event.visitorFound && <span className={`badge ${styles.newBadge}`}>new</span>}
                    </td>
                    <td>{formatPercent(event.confidence.score)}</td>
                    <AddressCell ip={event.ip} ipInfo={event.signals.ipInfo} />
                    <td>
                      <SignalBadges signals={event.signals} />
                    </td>
                    <td>{event.suspectScore}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </LoadedView>
        <div className={styles.pager}>
          <button
            type="button"
            className="button button-secondary"
            disabled={cursors.length === 0}
            onClick={() => setCursors((previous) => previous.slice(0, -1))}
          >
            Newer
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={loaded.state !== 'ready' || !loaded.data.nextCursor}
            onClick={() => {
              if (loaded.state === 'ready' && loaded.data.nextCursor) {
                const next = loaded.data.nextCursor
                setCursors((previous) => [...previous, next])
              }
            }}
          >
            Older
          </button>
        </div>
      </div>
    </section>
  )
}

export function SignalBadges({
  signals,
}: {
  signals: Record<string, { result: unknown; reasons?: string[] }>
}) {
  // A signal earns a badge when it fired: a verdict other than "not detected", with reasons
  // (the address's place and network is data, shown beside the address, never a badge).
  const flagged = Object.entries(signals).filter(
    ([name, signal]) =>
      name !== 'ipInfo' &&
      signal.result !== 'notDetected' &&
      signal.result !== false &&
      (signal.reasons?.length ?? 0) > 0,
  )
  if (flagged.length === 0) return <span className="muted">none</span>
  return (
    <span className={styles.badges}>
      {flagged.map(([name, signal]) => (
        <span key={name} className={`badge ${styles.flag}`}>
          {signalTitle(name)}
          {typeof signal.result === 'string' ? `: ${signal.result}` : ''}
        </span>
      ))}
    </span>
  )
}
