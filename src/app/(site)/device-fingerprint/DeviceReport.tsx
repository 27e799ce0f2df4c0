'use client'

import { useCallback, useState } from 'react'
import type { CollectResult } from '@/agent'
import { clearStoredToken } from '@/agent/identify'
import type { IdentifyResult } from '@/agent/messages'
import { DataTable } from '@/components/DataTable'
import { formatCount, formatPercent } from '@/components/format'
import { LoadedView } from '@/components/LoadedView'
import { MatchExplanation } from '@/components/MatchExplanation'
import { ErrorNote } from '@/components/Notes'
import { SignalTable } from '@/components/SignalTable'
import { SmartSignals } from '@/components/SmartSignals'
import { Cell, Row } from '@/components/Table'
import tables from '@/components/Table.module.css'
import { Time } from '@/components/Time'
import { useConfirmation } from '@/components/useConfirmation'
import { useLoaded } from '@/components/useLoaded'
import type { ForgottenDevice, DeviceReport as Report } from '@/contracts/device'
import { useVisitorData } from '@/sdk/react'
import styles from './DeviceReport.module.css'

/** What one check of this browser found: what was collected, the answer, and what is stored. */
type Checked = { collection: CollectResult; result: IdentifyResult; report: Report | null }

function describeVisitors(count: number): string {
  return count === 1 ? 'one visitor' : `${formatCount(count)} visitors`
}

const methods: Record<string, string> = {
  new: 'first visit',
  token: 'stored identifier',
  fingerprint: 'fingerprint match',
}

/** Runs the agent in this browser and shows everything Tessera knows about this device. */
export function DeviceReport() {
  // Each "try again" or "check again" is a new check from the start, hence a new component.
  const [attempt, setAttempt] = useState(0)
  const [forgotten, setForgotten] = useState<ForgottenDevice | null>(null)

  function checkAgain() {
    setForgotten(null)
    setAttempt((count) => count + 1)
  }

  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.intro}>
        <h1>Your device</h1>
        <p className="muted">
          This is what your browser tells any website that asks, and what this Tessera server stores about it.
          Tessera uses it only to recognise devices and stop fraud. You can download it, and delete what this
          browser stored.
        </p>
      </header>
      {forgotten ? (
        <div role="status" className={`card ${styles.status}`}>
          <ForgottenSummary forgotten={forgotten} />
          <button type="button" className="button" onClick={checkAgain}>
            Check my device again
          </button>
        </div>
      ) : (
        <DeviceCheck key={attempt} onRetry={checkAgain} onForgotten={setForgotten} />
      )}
    </div>
  )
}

/** What was erased, as it is: a visitor other browsers still have visits of stays. */
function ForgottenSummary({ forgotten }: { forgotten: ForgottenDevice }) {
  const visits = forgotten.deletedVisits === 1 ? 'visit' : 'visits'
  if (forgotten.visitorDeleted)
    return (
      <>
        <h2>This device was forgotten</h2>
        <p className="muted">
          Its {formatCount(forgotten.deletedVisits)} {visits}, its signals and its identifiers have been
          deleted. If you check again, you will be a new visitor.
        </p>
      </>
    )
  return (
    <>
      <h2>This browser's visits were deleted</h2>
      <p className="muted">
        {forgotten.deletedVisits === 0
          ? 'Nothing was stored for this browser.'
          : `This browser's ${formatCount(forgotten.deletedVisits)} ${visits} and its identifier have been deleted.`}{' '}
        The visitor ID stays: visits from other browsers are linked to it, and only those browsers can delete
        them. If you check again, this server may recognise this device as that visitor from its signals.
      </p>
    </>
  )
}

function DeviceCheck({
  onRetry,
  onForgotten,
}: {
  onRetry: () => void
  onForgotten: (forgotten: ForgottenDevice) => void
}) {
  const { getData } = useVisitorData({ immediate: false, withCollection: true })
  const check = useCallback(async (): Promise<Checked> => {
    try {
      // Each check is a fresh identification, with what was collected to show.
      const { collection, ...result } = await getData({ ignoreCache: true })
      if (!collection) throw new Error('The agent did not return what it collected.')
      const response = await fetch('/api/v1/device', { cache: 'no-store' })
      const report = response.ok ? ((await response.json()) as Report) : null
      return { collection, result, report }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      // A request the browser never got an answer to (offline, or blocked by an extension) says
      // only "Failed to fetch": say what it means.
      // (Chromium, Firefox and Safari word it so; any other TypeError is a fault, told as it is.)
      const unreachable =
        error instanceof TypeError && /failed to fetch|networkerror|load failed/i.test(error.message)
      const plain = unreachable
        ? 'this page could not reach the server (offline, or a blocker stopped the request)'
        : reason
      throw new Error(`Your device could not be checked: ${plain}.`.replace(/\.\.$/, '.'))
    }
  }, [getData])
  const { loaded } = useLoaded(check)

  return (
    <LoadedView loaded={loaded} loading="Examining your browser…" onRetry={onRetry}>
      {(checked) => <Findings {...checked} onForgotten={onForgotten} />}
    </LoadedView>
  )
}

function Findings({
  collection,
  result,
  report,
  onForgotten,
}: Checked & { onForgotten: (forgotten: ForgottenDevice) => void }) {
  const question = useConfirmation()
  const confirming = question.asking !== null
  const [forgetError, setForgetError] = useState<string | null>(null)

  async function forget() {
    setForgetError(null)
    const response = await fetch('/api/v1/device', { method: 'DELETE' }).catch(() => undefined)
    const forgotten = response?.ok
      ? ((await response.json().catch(() => null)) as ForgottenDevice | null)
      : null
    if (typeof forgotten?.deletedVisits !== 'number') {
      setForgetError('The device could not be forgotten; try again.')
      return
    }
    await clearStoredToken()
    onForgotten(forgotten)
  }

  return (
    <>
      <section className={`card ${styles.identity}`} aria-labelledby="identity-heading">
        <h2 id="identity-heading">Visitor</h2>
        <dl className={styles.figures}>
          <div>
            <dt>Visitor ID</dt>
            <dd className={styles.mono} data-testid="visitor-id">
              {result.visitorId}
            </dd>
          </div>
          <div>
            <dt>Confidence</dt>
            <dd data-testid="confidence">{formatPercent(result.confidence.score)}</dd>
          </div>
          <div>
            <dt>First seen</dt>
            <dd>
              <Time iso={result.firstSeenAt} />
            </dd>
          </div>
          <div>
            {/* Only this browser's own visits are shown to it (SECURITY.md): a cleared browser starts again at one. */}
            <dt>Visits from this browser</dt>
            <dd>{formatCount(report?.visits ?? 1)}</dd>
          </div>
        </dl>
        <p className="muted">
          {result.visitorFound
            ? 'This server has seen this device before and recognised it.'
            : 'This is the first time this server has seen this device.'}{' '}
          Request ID <code data-testid="request-id">{result.requestId}</code>.
        </p>
      </section>

      {report?.latestMatch && (
        <section aria-labelledby="match-heading" className={styles.section}>
          <h2 id="match-heading">How this visit was matched</h2>
          <MatchExplanation match={report.latestMatch} />
        </section>
      )}

      <section aria-labelledby="smart-heading" className={styles.section}>
        <h2 id="smart-heading">Smart signals</h2>
        <SmartSignals signals={result.signals} suspectScore={result.suspectScore} />
      </section>

      <section aria-labelledby="signals-heading" className={styles.section}>
        <h2 id="signals-heading">Collected signals</h2>
        <p className="muted">
          How identifying each value is among the {describeVisitors(report?.uniqueness[0]?.total ?? 1)} this
          server has seen: the more bits, the fewer devices share it.
        </p>
        <SignalTable result={collection} uniqueness={report?.uniqueness} />
      </section>

      {report && (
        <section aria-labelledby="history-heading" className={styles.section}>
          <h2 id="history-heading">Visit history</h2>
          <DataTable
            label="This browser's visits"
            columns={['When', 'Recognised by', 'Confidence', 'IP address', 'Page']}
          >
            {report.history.map((visit) => (
              <Row key={visit.requestId}>
                <Cell label="When">
                  <Time iso={visit.createdAt} />
                </Cell>
                <Cell label="Recognised by">{methods[visit.method] ?? visit.method}</Cell>
                <Cell label="Confidence">{formatPercent(visit.confidence)}</Cell>
                <Cell label="IP address">{visit.ip ?? '—'}</Cell>
                <Cell label="Page" className={tables.long}>
                  {visit.url ?? '—'}
                </Cell>
              </Row>
            ))}
          </DataTable>
        </section>
      )}

      <section aria-labelledby="data-heading" className={`card ${styles.section}`}>
        <h2 id="data-heading">Your data</h2>
        <p className="muted">
          Download everything stored about this device, or delete what this browser stored.
        </p>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape from the buttons inside puts the question away */}
        <div className={styles.actions} onKeyDown={confirming ? question.onKeyDown : undefined}>
          <a className="button button-secondary" href="/api/v1/device/export" download="tessera-my-data.json">
            Export my data (JSON)
          </a>
          {confirming ? (
            <>
              <button type="button" className="button button-danger" onClick={() => void forget()}>
                Yes, delete it
              </button>
              <button
                type="button"
                className="button button-secondary"
                ref={question.safeChoice}
                onClick={question.keep}
              >
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className="button button-secondary"
              ref={question.asker}
              onClick={() => question.ask(true)}
            >
              Forget this device…
            </button>
          )}
        </div>
        {confirming && (
          <p role="alert" className={styles.warning}>
            This deletes every visit this browser made and the identifier it keeps, and the whole visitor when
            no other browser has visits of it. It cannot be undone.
          </p>
        )}
        {forgetError && <ErrorNote>{forgetError}</ErrorNote>}
      </section>
    </>
  )
}
