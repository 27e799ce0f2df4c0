'use client'

import { LoadedView } from '../LoadedView'
import tables from '../Table.module.css'
import { Time } from '../Time'
import styles from './console.module.css'
import { ExportLinks } from './ExportLinks'
import { usePolling } from './usePolling'

const outcomeLabels = { allow: 'allowed', challenge: 'challenged', deny: 'denied' } as const

/** The latest sign-up decisions and why each was made. */
export function SignupDecisions({
  onOpenVisitor,
  onOpenEvent,
}: {
  onOpenVisitor: (visitorId: string) => void
  onOpenEvent: (requestId: string) => void
}) {
  const { loaded } = usePolling('GET /api/console/decisions', {})
  return (
    <section aria-labelledby="decisions-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="decisions-heading">Sign-up decisions</h2>
        <ExportLinks query={{ kind: 'decisions', signal: 'all' }} what="all sign-up decisions" />
      </div>
      <div className={tables.frame}>
        <LoadedView
          loaded={loaded}
          loading="Loading decisions…"
          isEmpty={(data) => data.decisions.length === 0}
          empty="No sign-ups yet. Decisions from /registration appear here with their reasons."
        >
          {(data) => (
            <table className={tables.table}>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Email</th>
                  <th scope="col">Decision</th>
                  <th scope="col">Reasons</th>
                  <th scope="col">Visitor</th>
                </tr>
              </thead>
              <tbody>
                {data.decisions.map((decision) => (
                  <tr key={decision.requestId}>
                    <td>
                      <button
                        type="button"
                        className={styles.linkButton}
                        onClick={() => onOpenEvent(decision.requestId)}
                      >
                        <Time iso={decision.createdAt} />
                        <span className="visually-hidden">: sign-up details of {decision.email}</span>
                      </button>
                    </td>
                    <td>{decision.email}</td>
                    <td>
                      <span className={`badge ${styles[`outcome_${decision.outcome}`]}`}>
                        {outcomeLabels[decision.outcome]}
                      </span>
                      {decision.challengeSolved && <span className="muted"> after a solved challenge</span>}
                      {decision.review && (
                        <span className="muted">
                          {' '}
                          · {decision.review} by {decision.reviewedBy}
                        </span>
                      )}
                      {(decision.visitorLabel || decision.accountLabel) && (
                        <span className="muted">
                          {' '}
                          · labelled{' '}
                          {[
                            decision.visitorLabel && `device ${decision.visitorLabel}`,
                            decision.accountLabel && `account ${decision.accountLabel}`,
                          ]
                            .filter(Boolean)
                            .join(', ')}
                        </span>
                      )}
                    </td>
                    <td className={tables.long}>
                      {decision.reasons.length === 0 ? (
                        <span className="muted">no rule triggered</span>
                      ) : (
                        <ul className={styles.reasons}>
                          {decision.reasons.map((reason) => (
                            <li key={reason.rule}>{reason.message}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td>
                      {decision.visitorId ? (
                        <button
                          type="button"
                          className={styles.linkButton}
                          onClick={() => onOpenVisitor(decision.visitorId ?? '')}
                        >
                          <code>{decision.visitorId}</code>
                        </button>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </LoadedView>
      </div>
    </section>
  )
}
