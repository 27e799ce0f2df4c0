'use client'

import { type FormEvent, useCallback, useState } from 'react'
import type { VisitorPanel as VisitorPanelData } from '@/contracts/console'
import { normaliseNetwork } from '@/contracts/network-range'
import { FormField } from '../FormField'
import { formatCount, formatPercent, formatTime } from '../format'
import { LoadedView } from '../LoadedView'
import { ErrorNote, SuccessNote } from '../Notes'
import tables from '../Table.module.css'
import { useLoaded } from '../useLoaded'
import { AddressCell } from './AddressCell'
import { callConsole } from './api'
import styles from './console.module.css'
import { NetworkVisitorsPanel } from './NetworkVisitorsPanel'
import { SignalBadges } from './RecentEvents'

/**
 * Look-up by visitor ID, request ID or account (linked ID), or of the visitors of an address or a
 * CIDR range; the panel lives in ?lookup=.
 */
export function VisitorLookup({
  query,
  onQuery,
}: {
  query: string | null
  onQuery: (query: string | null) => void
}) {
  const [notice, setNotice] = useState<string | null>(null)

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const value = String(new FormData(event.currentTarget).get('q') ?? '').trim()
    setNotice(null)
    onQuery(value || null)
  }

  function forgotten(visitorId: string) {
    setNotice(`Visitor ${visitorId} and everything stored about it were deleted.`)
    onQuery(null)
  }

  return (
    <section aria-labelledby="lookup-heading" className={styles.section}>
      <h2 id="lookup-heading">Visitor look-up</h2>
      <search>
        <form className={styles.lookupForm} onSubmit={submit}>
          <FormField
            label="Visitor ID, request ID, account, IP address or range"
            hideLabel
            className={styles.grow}
          >
            {(control) => (
              <input
                {...control}
                name="q"
                key={query ?? ''}
                defaultValue={query ?? ''}
                placeholder="Visitor ID, request ID, account email, IP address or CIDR range"
              />
            )}
          </FormField>
          <button type="submit" className="button">
            Look up
          </button>
        </form>
      </search>
      {notice && <SuccessNote>{notice}</SuccessNote>}
      {query &&
        (normaliseNetwork(query) ? (
          <NetworkVisitorsPanel key={query} query={query} onQuery={onQuery} onClose={() => onQuery(null)} />
        ) : (
          <VisitorPanel
            key={query}
            query={query}
            onQuery={onQuery}
            onClose={() => onQuery(null)}
            onForgotten={forgotten}
          />
        ))}
    </section>
  )
}

/** One visitor's facts, history and signals, with "forget this visitor". */
function VisitorPanel({
  query,
  onQuery,
  onClose,
  onForgotten,
}: {
  query: string
  onQuery: (query: string) => void
  onClose: () => void
  onForgotten: (visitorId: string) => void
}) {
  const load = useCallback(
    () => callConsole<VisitorPanelData>(`/api/console/lookup?q=${encodeURIComponent(query)}`),
    [query],
  )
  const { loaded } = useLoaded(load)
  const [confirming, setConfirming] = useState(false)
  const [forgetError, setForgetError] = useState<string | null>(null)

  async function forget(visitorId: string) {
    setForgetError(null)
    try {
      await callConsole(`/api/console/visitors/${encodeURIComponent(visitorId)}`, { method: 'DELETE' })
      onForgotten(visitorId)
    } catch (error) {
      setForgetError(error instanceof Error ? error.message : 'The visitor could not be forgotten.')
    }
  }

  return (
    <LoadedView loaded={loaded} loading={`Looking up “${query}”…`}>
      {(data) => (
        <section
          className={`card ${styles.panel}`}
          aria-labelledby="panel-heading"
          ref={(element) => element?.scrollIntoView({ block: 'nearest' })}
        >
          <div className={styles.panelHeader}>
            <h3 id="panel-heading">
              Visitor <code>{data.visitorId}</code>
            </h3>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Close
            </button>
          </div>
          <dl className={styles.facts}>
            <div>
              <dt>First seen</dt>
              <dd>{formatTime(data.firstSeenAt)}</dd>
            </div>
            <div>
              <dt>Last seen</dt>
              <dd>{formatTime(data.lastSeenAt)}</dd>
            </div>
            <div>
              <dt>Visits</dt>
              <dd>{formatCount(data.visits)}</dd>
            </div>
            <div>
              <dt>Accounts created</dt>
              <dd>
                {data.accounts.length ? data.accounts.map((account) => account.email).join(', ') : 'none'}
              </dd>
            </div>
            <div>
              <dt>Linked IDs</dt>
              <dd>{data.linkedIds.length ? data.linkedIds.join(', ') : 'none'}</dd>
            </div>
            <div>
              <dt>IP addresses</dt>
              <dd>
                {data.ips.length === 0
                  ? 'none'
                  : data.ips.map((entry, index) => (
                      <span key={entry.ip}>
                        {index > 0 && ', '}
                        <button
                          type="button"
                          className={styles.linkButton}
                          title={`Every visitor seen from ${entry.ip}`}
                          onClick={() => onQuery(entry.ip)}
                        >
                          {entry.ip}
                        </button>{' '}
                        ({formatCount(entry.events)})
                      </span>
                    ))}
              </dd>
            </div>
          </dl>
          <h4>History and signals</h4>
          <div className={tables.frame}>
            <table className={tables.table}>
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
                {data.events.map((event) => (
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
                    <AddressCell ip={event.ip} ipInfo={event.signals.ipInfo} />
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
          </div>
          {data.events[0] && data.events[0].scoreBreakdown.length > 0 && (
            <div>
              <h4>Latest suspect score, explained</h4>
              <ul className={styles.reasons}>
                {data.events[0].scoreBreakdown.map((row) => (
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
                  Delete visitor <code>{data.visitorId}</code> and all {formatCount(data.events.length)} of
                  its events? This cannot be undone.
                </p>
                <button type="button" className="button button-danger" onClick={() => forget(data.visitorId)}>
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
          {forgetError && <ErrorNote>{forgetError}</ErrorNote>}
        </section>
      )}
    </LoadedView>
  )
}
