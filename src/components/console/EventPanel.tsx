'use client'

import { useCallback, useEffect, useRef } from 'react'
import { BreakableText } from '../BreakableText'
import { formatPercent } from '../format'
import { LoadedView } from '../LoadedView'
import { MatchExplanation } from '../MatchExplanation'
import { SmartSignals } from '../SmartSignals'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
import styles from './console.module.css'
import { OutcomeBadge } from './OutcomeBadge'
import { ReasonList } from './SignupDecisions'

const methods = {
  token: 'its stored identifier',
  fingerprint: 'its fingerprint',
} as const

/**
 * One identification in a dialog over the console: when, where and what, its smart signals in
 * words, how it was matched, the sign-up it served, and the raw JSON. Opened by `?event=` in the
 * address, so a link to it can be shared; Esc or Close closes it.
 */
export function EventPanel({
  requestId,
  onClose,
  onOpenVisitor,
}: {
  requestId: string
  onClose: () => void
  /** Opens the visitor in place of this event (one change of the address: the dialog goes with it). */
  onOpenVisitor: (visitorId: string) => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  // Leaving for a visitor changes the address itself: a close event on the way out must not.
  const leaving = useRef(false)
  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
  }, [])
  const load = useCallback(
    () => callConsole('GET /api/console/events/:requestId', { params: { requestId } }),
    [requestId],
  )
  const { loaded } = useLoaded(load)

  return (
    <dialog
      ref={dialog}
      className={`card ${styles.detail}`}
      aria-labelledby="event-detail-heading"
      onClose={() => {
        if (!leaving.current) onClose()
      }}
    >
      <header className={styles.panelHeader}>
        <h2 id="event-detail-heading">
          Event <code>{requestId}</code>
        </h2>
        <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      <LoadedView loaded={loaded} loading="Loading the event…">
        {({ event, siteName, method, evidence, decision }) => (
          <>
            <dl className={styles.facts}>
              <div>
                <dt>When</dt>
                <dd>
                  <Time iso={event.createdAt} />
                </dd>
              </div>
              <div>
                <dt>Site</dt>
                <dd>{siteName ?? (event.siteKey ? <code>{event.siteKey}</code> : 'none')}</dd>
              </div>
              <div>
                <dt>Visitor</dt>
                <dd>
                  <button
                    type="button"
                    className={styles.linkButton}
                    onClick={() => {
                      leaving.current = true
                      onOpenVisitor(event.visitorId)
                    }}
                  >
                    <code>{event.visitorId}</code>
                  </button>{' '}
                  {method === 'new'
                    ? `first seen here (${formatPercent(event.confidence.score)} confidence that it is new)`
                    : `returning, recognised by ${methods[method]} (${formatPercent(event.confidence.score)} confidence)`}
                </dd>
              </div>
              <div>
                <dt>IP address</dt>
                <dd>{event.ip ?? '—'}</dd>
              </div>
              <div>
                <dt>Page</dt>
                <dd className={styles.wrap}>{event.url ? <BreakableText text={event.url} /> : '—'}</dd>
              </div>
              <div>
                <dt>User agent</dt>
                <dd className={styles.wrap}>{event.userAgent ?? '—'}</dd>
              </div>
              <div>
                <dt>Linked ID</dt>
                <dd>{event.linkedId ? <code>{event.linkedId}</code> : '—'}</dd>
              </div>
              <div>
                <dt>Tags</dt>
                <dd>{event.tag ? <code className={styles.wrap}>{JSON.stringify(event.tag)}</code> : '—'}</dd>
              </div>
            </dl>

            {decision && (
              <section aria-labelledby="event-decision-heading">
                <h3 id="event-decision-heading">Sign-up decision</h3>
                <p>
                  <OutcomeBadge decision={decision} /> · <BreakableText text={decision.email} /> ·{' '}
                  <Time iso={decision.createdAt} />
                  {decision.accountId && (
                    <>
                      {' '}
                      · account <code>{decision.accountId}</code>
                    </>
                  )}
                </p>
                {decision.reasons.length === 0 ? (
                  <p className="muted">No rule triggered.</p>
                ) : (
                  <ReasonList reasons={decision.reasons} />
                )}
              </section>
            )}

            <section aria-labelledby="event-signals-heading">
              <h3 id="event-signals-heading">Smart signals</h3>
              <SmartSignals
                signals={event.signals as Parameters<typeof SmartSignals>[0]['signals']}
                suspectScore={event.suspectScore}
              />
            </section>

            {evidence && (
              <section aria-labelledby="event-match-heading">
                <h3 id="event-match-heading">How it was matched</h3>
                <MatchExplanation match={{ method, confidence: event.confidence.score, evidence }} />
              </section>
            )}

            <details>
              <summary>Raw JSON</summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
              <pre className={styles.exchange} tabIndex={0}>
                {JSON.stringify(event, null, 2)}
              </pre>
            </details>
          </>
        )}
      </LoadedView>
    </dialog>
  )
}
