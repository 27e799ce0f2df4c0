'use client'

import { type FormEvent, useEffect, useState } from 'react'
import type { VisitorPanel as VisitorPanelData } from '@/contracts/console'
import { formatCount, formatPercent, formatTime } from '../format'
import { callConsole } from './api'
import styles from './console.module.css'
import { SignalBadges } from './RecentEvents'

type Panel =
  | { state: 'closed' }
  | { state: 'loading'; query: string }
  | { state: 'error'; query: string; message: string }
  | { state: 'ready'; query: string; data: VisitorPanelData }

/** Look-up by visitor ID, request ID, account (linked ID) or IP; the panel lives in ?lookup=. */
export function VisitorLookup({
  query,
  onQuery,
}: {
  query: string | null
  onQuery: (query: string | null) => void
}) {
  const [panel, setPanel] = useState<Panel>({ state: 'closed' })
  const [confirming, setConfirming] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)

  useEffect(() => {
    setConfirming(false)
    if (!query) {
      setPanel({ state: 'closed' })
      return
    }
    let cancelled = false
    setPanel({ state: 'loading', query })
    callConsole<VisitorPanelData>(`/api/console/lookup?q=${encodeURIComponent(query)}`)
      .then((data) => !cancelled && setPanel({ state: 'ready', query, data }))
      .catch((error: Error) => !cancelled && setPanel({ state: 'error', query, message: error.message }))
    return () => {
      cancelled = true
    }
  }, [query])

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const value = String(new FormData(event.currentTarget).get('q') ?? '').trim()
    setNotice(null)
    onQuery(value || null)
  }

  async function forget(visitorId: string) {
    await callConsole(`/api/console/visitors/${encodeURIComponent(visitorId)}`, { method: 'DELETE' })
    setNotice(`Visitor ${visitorId} and everything stored about it were deleted.`)
    onQuery(null)
  }

  return (
    <section aria-labelledby="lookup-heading" className={styles.section}>
      <h2 id="lookup-heading">Visitor look-up</h2>
      <search>
        <form className={styles.lookupForm} onSubmit={submit}>
          <label className="visually-hidden" htmlFor="lookup-query">
            Visitor ID, request ID, account or IP address
          </label>
          <input
            id="lookup-query"
            name="q"
            key={query ?? ''}
            defaultValue={query ?? ''}
            placeholder="Visitor ID, request ID, account email or IP address"
          />
          <button type="submit" className="button">
            Look up
          </button>
        </form>
      </search>
      {notice && (
        <p role="status" className={styles.success}>
          {notice}
        </p>
      )}
      {panel.state === 'loading' && (
        <p role="status" className="muted">
          Looking up “{panel.query}”…
        </p>
      )}
      {panel.state === 'error' && (
        <p role="alert" className={styles.error}>
          {panel.message}
        </p>
      )}
      {panel.state === 'ready' && (
        <section
          className={`card ${styles.panel}`}
          aria-labelledby="panel-heading"
          ref={(element) => element?.scrollIntoView({ block: 'nearest' })}
        >
          <div className={styles.panelHeader}>
            <h3 id="panel-heading">
              Visitor <code>{panel.data.visitorId}</code>
            </h3>
            <button type="button" className="button button-secondary" onClick={() => onQuery(null)}>
              Close
            </button>
          </div>
          <dl className={styles.facts}>
            <div>
              <dt>First seen</dt>
              <dd>{formatTime(panel.data.firstSeenAt)}</dd>
            </div>
            <div>
              <dt>Last seen</dt>
              <dd>{formatTime(panel.data.lastSeenAt)}</dd>
            </div>
            <div>
              <dt>Visits</dt>
              <dd>{formatCount(panel.data.visits)}</dd>
            </div>
            <div>
              <dt>Accounts created</dt>
              <dd>
                {panel.data.accounts.length
                  ? panel.data.accounts.map((account) => account.email).join(', ')
                  : 'none'}
              </dd>
            </div>
            <div>
              <dt>Linked IDs</dt>
              <dd>{panel.data.linkedIds.length ? panel.data.linkedIds.join(', ') : 'none'}</dd>
            </div>
            <div>
              <dt>IP addresses</dt>
              <dd>
                {panel.data.ips.map((entry) => `${entry.ip} (${formatCount(entry.events)})`).join(', ') ||
                  'none'}
              </dd>
            </div>
          </dl>
          <h4>History and signals</h4>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">How matched</th>
                <th scope="col">Confidence</th>
                <th scope="col">IP</th>
                <th scope="col">Signals</th>
                <th scope="col">Suspect score</th>
              </tr>
            </thead>
            <tbody>
              {panel.data.events.map((event) => (
                <tr key={event.requestId}>
                  <td>{formatTime(event.createdAt)}</td>
                  <td>
                    {event.method === 'new'
                      ? 'new visitor'
                      : event.method === 'token'
                        ? 'stored ID'
                        : 'fingerprint'}
                  </td>
                  <td>{formatPercent(event.confidence)}</td>
                  <td>{event.ip ?? '—'}</td>
                  <td>
                    <SignalBadges signals={event.signals} />
                  </td>
                  <td>
                    <span
                      title={event.scoreBreakdown.map((row) => `+${row.points}: ${row.because}`).join('\n')}
                    >
                      {event.suspectScore}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {panel.data.events[0] && panel.data.events[0].scoreBreakdown.length > 0 && (
            <div>
              <h4>Latest suspect score, explained</h4>
              <ul className={styles.reasons}>
                {panel.data.events[0].scoreBreakdown.map((row) => (
                  <li key={row.because}>
                    +{row.points} ({row.signal}): {row.because}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className={styles.dangerZone}>
            {confirming ? (
              <>
                <p>
                  Delete visitor <code>{panel.data.visitorId}</code> and all {panel.data.events.length} of its
                  events? This cannot be undone.
                </p>
                <button
                  type="button"
                  className={`button ${styles.dangerButton}`}
                  onClick={() => forget(panel.data.visitorId)}
                >
                  Yes, forget this visitor
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => setConfirming(false)}
                >
                  Keep it
                </button>
              </>
            ) : (
              <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
                Forget this visitor…
              </button>
            )}
          </div>
        </section>
      )}
    </section>
  )
}
