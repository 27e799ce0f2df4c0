'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import { RECENT_EVENTS_READ, type VisitorPanel as VisitorPanelData } from '@/contracts/console'
import { BreakableText } from '../BreakableText'
import { DataTable } from '../DataTable'
import { formatCount, formatPercent } from '../format'
import { LoadedView } from '../LoadedView'
import { ErrorNote } from '../Notes'
import { Cell, Row } from '../Table'
import tables from '../Table.module.css'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { AddressCell } from './AddressCell'
import { callConsole } from './api'
import styles from './console.module.css'
import { ExportLinks } from './ExportLinks'
import { LabelChoice } from './LabelChoice'
import { SignalBadges } from './RecentEvents'
import { formatUserAgent } from './user-agent'

/** One visitor's facts, history and signals, with "forget this visitor". */
export function VisitorPanel({
  query,
  site,
  onQuery,
  opened,
  onClose,
  onForgotten,
}: {
  query: string
  /**
   * Counts the requests to open a visitor from elsewhere in the console: at each, this one again
   * included, the panel comes into view.
   */
  opened: number
  /** The console's site: the history lists its events alone (null: every site's). */
  site: string | null
  onQuery: (query: string) => void
  onClose: () => void
  /** Absent for a role that may not forget visitors: the panel says who can. */
  onForgotten?: (visitorId: string) => void
}) {
  const load = useCallback(
    () => callConsole('GET /api/console/lookup', { query: { q: query, ...(site && { site }) } }),
    [query, site],
  )
  const { loaded } = useLoaded(load)
  // Brought into view when it opens and when asked to open again, never at a mere re-render: a new
  // ref function at every render pulled the page back here whenever a filter further down changed.
  const section = useRef<HTMLElement | null>(null)
  const bringIntoView = useCallback((element: HTMLElement | null) => {
    section.current = element
    if (element) showPanel(element)
  }, [])
  useEffect(() => {
    if (opened > 0 && section.current) showPanel(section.current)
  }, [opened])

  return (
    <LoadedView loaded={loaded} loading={`Looking up “${query}”…`}>
      {(data) => (
        <section className={`card ${styles.panel}`} aria-labelledby="panel-heading" ref={bringIntoView}>
          <div className={styles.panelHeader}>
            <h3 id="panel-heading">
              Visitor <code>{data.visitorId}</code>
            </h3>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Close
            </button>
          </div>
          <VisitorFacts data={data} onQuery={onQuery} />
          <div className={styles.panelHeader}>
            <h4>History and signals</h4>
            <ExportLinks
              query={{ kind: 'visitor', visitorId: data.visitorId, signal: 'all' }}
              what="this visitor's history"
            />
          </div>
          <VisitorHistory events={data.events} />
          <ScoreExplained latest={data.events[0]} />
          {onForgotten ? (
            <ForgetVisitor visitorId={data.visitorId} events={data.events.length} onForgotten={onForgotten} />
          ) : (
            <p className="muted">An admin can forget this visitor (erase its visits and identifiers).</p>
          )}
        </section>
      )}
    </LoadedView>
  )
}

/**
 * Scrolls the panel into view: whole, moving the page as little as it can, when it fits the screen;
 * else from its heading (a visitor with a long history, asked for from an event below it).
 */
function showPanel(element: HTMLElement) {
  const fits = element.getBoundingClientRect().height <= window.innerHeight * 0.8
  element.scrollIntoView({ block: fits ? 'nearest' : 'start' })
}

/** First and last seen, visits, accounts, linked IDs, and addresses that open their network's visitors. */
function VisitorFacts({ data, onQuery }: { data: VisitorPanelData; onQuery: (query: string) => void }) {
  // A busy visitor's addresses and linked IDs are those of its latest visits: say so.
  const ofLatest =
    data.visits > RECENT_EVENTS_READ ? ` (latest ${formatCount(RECENT_EVENTS_READ)} visits)` : ''
  return (
    <dl className={styles.facts}>
      <div>
        <dt>First seen</dt>
        <dd>
          <Time iso={data.firstSeenAt} />
        </dd>
      </div>
      <div>
        <dt>Last seen</dt>
        <dd>
          <Time iso={data.lastSeenAt} />
        </dd>
      </div>
      <div>
        <dt>Visits</dt>
        <dd>{formatCount(data.visits)}</dd>
      </div>
      <div className={styles.wideFact}>
        <dt>Label</dt>
        <dd>
          <LabelChoice
            subject="visitor"
            id={data.visitorId}
            name={`visitor ${data.visitorId}`}
            label={data.label}
          />
        </dd>
      </div>
      <div className={data.accounts.length > 0 ? styles.wideFact : undefined}>
        <dt>Accounts created</dt>
        <dd>
          {data.accounts.length === 0 ? (
            'none'
          ) : (
            <ul className={styles.accounts}>
              {data.accounts.map((account) => (
                <li key={account.id}>
                  {account.email}
                  <LabelChoice
                    subject="account"
                    id={account.id}
                    name={`account ${account.email}`}
                    label={account.label}
                  />
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      <div>
        <dt>Linked IDs{ofLatest}</dt>
        <dd>{data.linkedIds.length ? data.linkedIds.join(', ') : 'none'}</dd>
      </div>
      <div>
        <dt>IP addresses{ofLatest}</dt>
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
  )
}

/**
 * The visitor's latest events: how each was matched, its address and signals. Eight columns did not
 * fit a 1280-pixel screen's panel: the confidence sits under the match, the page's address wraps in
 * a narrower column, and the score's column is named as in the recent events.
 */
function VisitorHistory({ events }: { events: VisitorPanelData['events'] }) {
  return (
    <DataTable
      label="The visitor's history"
      columns={['Time', 'Site and page', 'Browser', 'How matched', 'IP', 'Signals', 'Score']}
    >
      {events.map((event) => (
        <Row key={event.requestId}>
          <Cell label="Time">
            <Time iso={event.createdAt} />
          </Cell>
          <Cell label="Site and page" className={tables.unbroken}>
            {event.siteName ?? <span className="muted">no site</span>}
            {event.url && (
              <>
                <br />
                <span className="muted">
                  <BreakableText text={event.url} />
                </span>
              </>
            )}
          </Cell>
          <Cell label="Browser">
            {event.userAgent ? (
              // The browser and system by name; the whole string on hover, to screen readers, and in the event's details.
              <span title={event.userAgent} className={styles.browser}>
                {formatUserAgent(event.userAgent)}
                <span className="visually-hidden">: {event.userAgent}</span>
              </span>
            ) : (
              '—'
            )}
          </Cell>
          <Cell label="How matched">
            {event.method === 'new' ? 'new visitor' : event.method === 'token' ? 'stored ID' : 'fingerprint'}
            <br />
            <span className="muted">{formatPercent(event.confidence)} confidence</span>
          </Cell>
          <AddressCell ip={event.ip} ipInfo={event.signals.ipInfo} />
          <Cell label="Signals">
            <SignalBadges signals={event.signals} />
          </Cell>
          <Cell label="Score">
            <span title={event.scoreBreakdown.map((row) => `+${row.points}: ${row.because}`).join('\n')}>
              {event.suspectScore}
            </span>
          </Cell>
        </Row>
      ))}
    </DataTable>
  )
}

/** The latest event's suspect score, row by row; nothing when it is 0. */
function ScoreExplained({ latest }: { latest: VisitorPanelData['events'][number] | undefined }) {
  if (!latest || latest.scoreBreakdown.length === 0) return null
  return (
    <div>
      <h4>Latest suspect score, explained</h4>
      <ul className={styles.reasons}>
        {latest.scoreBreakdown.map((row) => (
          <li key={row.because}>
            +{row.points} ({row.signal}): {row.because}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** "Forget this visitor", behind a question whose safe answer is "keep it". */
function ForgetVisitor({
  visitorId,
  events,
  onForgotten,
}: {
  visitorId: string
  events: number
  onForgotten: (visitorId: string) => void
}) {
  const [confirming, setConfirming] = useState(false)
  const [forgetError, setForgetError] = useState<string | null>(null)

  async function forget() {
    setForgetError(null)
    try {
      await callConsole('DELETE /api/console/visitors/:visitorId', { params: { visitorId } })
      onForgotten(visitorId)
    } catch (error) {
      setForgetError(error instanceof Error ? error.message : 'The visitor could not be forgotten.')
    }
  }

  return (
    <>
      <div className={styles.dangerZone}>
        {confirming ? (
          <>
            <p>
              Delete visitor <code>{visitorId}</code> and all {formatCount(events)} of its events? This cannot
              be undone.
            </p>
            <button type="button" className="button button-danger" onClick={forget}>
              Yes, forget this visitor
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
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
    </>
  )
}
