'use client'

import { type KeyboardEvent, useRef, useState } from 'react'
import type { SignupDecision } from '@/contracts/console'
import { BreakableText } from '../BreakableText'
import { formatCount } from '../format'
import { LoadedView } from '../LoadedView'
import { ErrorNote } from '../Notes'
import { ScrollFrame } from '../ScrollFrame'
import { Cell, Row, Table } from '../Table'
import tables from '../Table.module.css'
import { Time } from '../Time'
import { ConsoleError, callConsole } from './api'
import styles from './console.module.css'
import { OutcomeBadge, outcomeLabels } from './OutcomeBadge'
import { ReasonList } from './SignupDecisions'
import { usePolling } from './usePolling'

type Verdict = 'approve' | 'reject'

const without = (set: ReadonlySet<string>, id: string) => new Set([...set].filter((entry) => entry !== id))

/**
 * Challenged and denied sign-ups waiting for an analyst. Each row decides with one key: A approves
 * (the device, and the account if one was made, are labelled good, so its next sign-up passes), R
 * rejects (labelled fraud, so the rules deny it), U takes the latest verdict back (its labels as they
 * were), J and K or the arrows move, Enter opens the details.
 */
export function ReviewQueue({
  site,
  onOpenEvent,
}: {
  /** One site's public key, or every site's queue. */
  site: string | null
  onOpenEvent: (requestId: string) => void
}) {
  const { loaded, reload } = usePolling('GET /api/console/reviews', { query: site ? { site } : {} }, 30_000)
  const [reviewed, setReviewed] = useState<ReadonlySet<string>>(new Set())
  const [busy, setBusy] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  /** The latest verdict, while it can be undone (until the next verdict or its undoing). */
  const [latest, setLatest] = useState<{ decision: SignupDecision; verdict: Verdict } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const rows = useRef(new Map<string, HTMLTableRowElement>())
  const heading = useRef<HTMLHeadingElement>(null)
  // Read at once, not at the next render: two fast presses must not send two verdicts.
  const deciding = useRef(false)

  const waiting = (decisions: SignupDecision[]) =>
    decisions.filter((decision) => !reviewed.has(decision.requestId))

  /** A row to focus as soon as it is rendered: an undone verdict's row comes back with a later read. */
  const focusWhenShown = useRef<string | null>(null)

  function focusRow(requestId: string | undefined) {
    if (!requestId) return
    const row = rows.current.get(requestId)
    focusWhenShown.current = row ? null : requestId
    row?.focus()
  }

  async function decide(decision: SignupDecision, verdict: Verdict, list: SignupDecision[]) {
    if (deciding.current) return
    deciding.current = true
    focusWhenShown.current = null
    setBusy(decision.requestId)
    setError(null)
    try {
      const answer = await callConsole('POST /api/console/reviews', {
        body: { requestId: decision.requestId, verdict },
      })
      const index = list.findIndex((entry) => entry.requestId === decision.requestId)
      const next = list[index + 1] ?? list[index - 1]
      setReviewed((done) => new Set(done).add(decision.requestId))
      setLatest({ decision, verdict })
      const labelled = [answer.visitorLabel && 'device', answer.accountLabel && 'account'].filter(Boolean)
      setAnnouncement(
        `${verdict === 'approve' ? 'Approved' : 'Rejected'} ${decision.email}${
          labelled.length
            ? `: ${labelled.join(' and ')} labelled ${verdict === 'approve' ? 'good' : 'fraud'}`
            : ''
        }.`,
      )
      // The next row takes the focus, so the analyst's hands stay on the keys; after the last, the heading.
      requestAnimationFrame(() => (next ? focusRow(next.requestId) : heading.current?.focus()))
      // Hidden until the queue read after the verdict is the one shown: from then on the server says
      // what waits (a sign-up another analyst's undo sent back shows again).
      void reload().then((shown) => shown && setReviewed((done) => without(done, decision.requestId)))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The review was not saved.')
      void reload()
    } finally {
      deciding.current = false
      setBusy(null)
    }
  }

  /** Takes the latest verdict back: the sign-up waits again, its labels as they were before it. */
  async function undo() {
    if (!latest || deciding.current) return
    deciding.current = true
    const { decision, verdict } = latest
    setBusy(decision.requestId)
    setError(null)
    try {
      const labels = await callConsole('DELETE /api/console/reviews/:requestId', {
        params: { requestId: decision.requestId },
      })
      setLatest(null)
      setReviewed((done) => without(done, decision.requestId))
      const device = labels.visitorLabel ? `labelled ${labels.visitorLabel}` : 'without a label'
      setAnnouncement(
        `${verdict === 'approve' ? 'Approval' : 'Rejection'} of ${decision.email} undone: it waits again${
          decision.visitorId ? `, its device ${device}` : ''
        }.`,
      )
      // The row returns with the queue's next read, and takes the focus as it is rendered.
      focusRow(decision.requestId)
      await reload()
    } catch (failure) {
      // Refused (a later verdict on the device came first, say): nothing left to take back here. A
      // failure on the way (the network) leaves the button to try again.
      if (failure instanceof ConsoleError && (failure.status === 404 || failure.status === 409))
        setLatest(null)
      setError(failure instanceof Error ? failure.message : 'The verdict was not undone.')
      void reload()
    } finally {
      deciding.current = false
      setBusy(null)
    }
  }

  function onKey(
    event: KeyboardEvent<HTMLTableRowElement>,
    decision: SignupDecision,
    list: SignupDecision[],
  ) {
    // Keys act on the row itself (a button in it keeps its own keys), once per press: a held R
    // must not reject a run of rows as the focus moves down.
    if (event.target !== event.currentTarget || event.repeat) return
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const index = list.findIndex((entry) => entry.requestId === decision.requestId)
    const key = event.key.toLowerCase()
    const moves: Record<string, number> = { j: 1, arrowdown: 1, k: -1, arrowup: -1 }
    if (key === 'a' || key === 'r') {
      event.preventDefault()
      void decide(decision, key === 'a' ? 'approve' : 'reject', list)
    } else if (key === 'u' && latest) {
      event.preventDefault()
      void undo()
    } else if (key in moves) {
      event.preventDefault()
      focusRow(list[index + (moves[key] ?? 0)]?.requestId)
    } else if (key === 'enter') {
      event.preventDefault()
      onOpenEvent(decision.requestId)
    }
  }

  return (
    <section aria-labelledby="review-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="review-heading" ref={heading} tabIndex={-1}>
          Review queue
        </h2>
        <p className={`muted ${styles.keys}`}>
          On a row (screen readers: the buttons): <kbd>A</kbd> approve, <kbd>R</kbd> reject, <kbd>U</kbd> undo
          the latest, <kbd>J</kbd>/<kbd>K</kbd> next and previous, <kbd>Enter</kbd> details.
        </p>
      </div>
      {/* The live region stays in place, empty until a verdict, so screen readers hear each one. */}
      <div className={announcement ? styles.verdictNote : undefined}>
        <p aria-live="polite" className={styles.flat}>
          {announcement}
        </p>
        {latest && (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy !== null}
            aria-keyshortcuts="U"
            onClick={() => void undo()}
          >
            Undo<span className="visually-hidden"> the verdict on {latest.decision.email}</span>
          </button>
        )}
      </div>
      {error && <ErrorNote>{error}</ErrorNote>}
      <ScrollFrame label="Waiting sign-ups, scrolling sideways">
        <LoadedView
          loaded={loaded}
          loading="Loading the review queue…"
          isEmpty={(data) => waiting(data.decisions).length === 0}
          empty="Nothing to review: every challenged or denied sign-up of the last 30 days has a verdict."
        >
          {(data) => {
            const list = waiting(data.decisions)
            return (
              <Table
                className={styles.reviewTable}
                caption={
                  <>
                    {formatCount(list.length)} sign-up{list.length === 1 ? '' : 's'} of the last {data.days}{' '}
                    days waiting
                    {data.moreWaiting && ' (the newest; more wait behind them)'}.
                  </>
                }
                // The verdicts are held at the frame's right edge while a row scrolls sideways; on a
                // phone each row is a block, its verdicts last.
                columns={[
                  'Time',
                  'Email',
                  'Decision',
                  'Reasons',
                  { name: 'Verdict', className: styles.verdictCell },
                ]}
              >
                {list.map((decision) => (
                  <Row
                    key={decision.requestId}
                    ref={(row) => {
                      if (!row) return void rows.current.delete(decision.requestId)
                      rows.current.set(decision.requestId, row)
                      if (focusWhenShown.current === decision.requestId) {
                        focusWhenShown.current = null
                        row.focus()
                      }
                    }}
                    tabIndex={0}
                    className={styles.reviewRow}
                    aria-label={`${decision.email}, ${outcomeLabels[decision.outcome]}${decision.challengeSolved ? ' after a solved challenge' : ''}`}
                    aria-keyshortcuts={latest ? 'A R U J K Enter' : 'A R J K Enter'}
                    onKeyDown={(event) => onKey(event, decision, list)}
                  >
                    <Cell label="Time">
                      <button
                        type="button"
                        className={styles.linkButton}
                        onClick={() => onOpenEvent(decision.requestId)}
                      >
                        <Time iso={decision.createdAt} />
                      </button>
                    </Cell>
                    <Cell label="Email" className={tables.unbroken}>
                      <BreakableText text={decision.email} />
                    </Cell>
                    <Cell label="Decision" className={tables.noted}>
                      <OutcomeBadge decision={decision} />
                      {decision.visitorLabel && (
                        <span className="muted"> device labelled {decision.visitorLabel}</span>
                      )}
                    </Cell>
                    <Cell label="Reasons" className={tables.long}>
                      <ReasonList reasons={decision.reasons} />
                    </Cell>
                    <Cell className={styles.verdictCell}>
                      <div className={styles.verdicts}>
                        <button
                          type="button"
                          className="button button-secondary"
                          disabled={busy === decision.requestId}
                          aria-keyshortcuts="A"
                          onClick={() => void decide(decision, 'approve', list)}
                        >
                          Approve<span className="visually-hidden"> {decision.email}</span>
                        </button>
                        <button
                          type="button"
                          className="button button-danger"
                          disabled={busy === decision.requestId}
                          aria-keyshortcuts="R"
                          onClick={() => void decide(decision, 'reject', list)}
                        >
                          Reject<span className="visually-hidden"> {decision.email}</span>
                        </button>
                      </div>
                    </Cell>
                  </Row>
                ))}
              </Table>
            )
          }}
        </LoadedView>
      </ScrollFrame>
    </section>
  )
}
