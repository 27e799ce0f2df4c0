'use client'

import type { SignupDecision } from '@/contracts/console'
import { BreakableText } from '../BreakableText'
import { FormField } from '../FormField'
import { LoadedView } from '../LoadedView'
import { ScrollFrame } from '../ScrollFrame'
import { Cell, Row, Table } from '../Table'
import tables from '../Table.module.css'
import { Time } from '../Time'
import styles from './console.module.css'
import { ExportLinks } from './ExportLinks'
import { FilterForm } from './FilterForm'
import { KeysetPager, useKeysetPages } from './KeysetPager'
import { OutcomeBadge } from './OutcomeBadge'
import { usePolling } from './usePolling'

/** A decision's reasons, as the decisions list and the review queue show them. */
export function ReasonList({ reasons }: { reasons: SignupDecision['reasons'] }) {
  return (
    <ul className={styles.reasons}>
      {reasons.map((reason) => (
        <li key={reason.rule}>{reason.message}</li>
      ))}
    </ul>
  )
}

/** The decisions filters the console keeps in its address. */
export const DECISION_FILTERS = ['outcome', 'email'] as const
export type DecisionFilterValues = Partial<Record<(typeof DECISION_FILTERS)[number], string>>

/** The latest sign-up decisions and why each was made, filterable, one page at a time. */
export function SignupDecisions({
  site,
  filters,
  onFilters,
  onOpenVisitor,
  onOpenEvent,
}: {
  /** The site chosen for the whole console (null: all sites, and the list says whose each is). */
  site: string | null
  /** The filters, kept in the address (?outcome=, ?email=). */
  filters: DecisionFilterValues
  onFilters: (filters: Record<string, string | null>) => void
  onOpenVisitor: (visitorId: string) => void
  onOpenEvent: (requestId: string) => void
}) {
  const outcome = filters.outcome as 'allow' | 'challenge' | 'deny' | undefined
  const query = { outcome, email: filters.email, ...(site && { site }) }
  const filterKey = JSON.stringify({ ...filters, site })
  const pages = useKeysetPages(filterKey)
  const { loaded } = usePolling('GET /api/console/decisions', { query: { ...query, cursor: pages.cursor } })
  const active = DECISION_FILTERS.filter((name) => filters[name]).length
  return (
    <section aria-labelledby="decisions-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="decisions-heading">Sign-up decisions</h2>
        <ExportLinks
          query={{ kind: 'decisions', ...query }}
          what={active > 0 ? 'these sign-up decisions' : 'all sign-up decisions'}
        />
      </div>
      <FilterForm key={filterKey} label="Filter decisions" active={active} onApply={onFilters}>
        <FormField label="Outcome">
          {(control) => (
            <select {...control} name="outcome" defaultValue={filters.outcome ?? ''}>
              <option value="">Any outcome</option>
              <option value="allow">Allowed</option>
              <option value="challenge">Challenged</option>
              <option value="deny">Denied</option>
            </select>
          )}
        </FormField>
        <FormField label="Email or @domain">
          {(control) => (
            <input {...control} name="email" placeholder="@example.com" defaultValue={filters.email ?? ''} />
          )}
        </FormField>
      </FilterForm>
      <ScrollFrame label="Decisions, scrolling sideways">
        <LoadedView
          loaded={loaded}
          loading="Loading decisions…"
          isEmpty={(data) => data.decisions.length === 0}
          empty={
            active > 0
              ? 'No sign-up decision matches these filters.'
              : 'No sign-ups yet. Decisions from /registration appear here with their reasons.'
          }
        >
          {(data) => (
            <Table columns={['Time', ...(site ? [] : ['Site']), 'Email', 'Decision', 'Reasons', 'Visitor']}>
              {data.decisions.map((decision) => (
                <Row key={decision.requestId}>
                  <Cell label="Time">
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => onOpenEvent(decision.requestId)}
                    >
                      <Time iso={decision.createdAt} />
                      <span className="visually-hidden">: sign-up details of {decision.email}</span>
                    </button>
                  </Cell>
                  {!site && (
                    <Cell label="Site">{decision.siteName ?? <span className="muted">none</span>}</Cell>
                  )}
                  <Cell label="Email" className={tables.unbroken}>
                    <BreakableText text={decision.email} />
                  </Cell>
                  <Cell label="Decision" className={tables.noted}>
                    <OutcomeBadge decision={decision} />
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
                  </Cell>
                  <Cell label="Reasons" className={tables.long}>
                    {decision.reasons.length === 0 ? (
                      <span className="muted">no rule triggered</span>
                    ) : (
                      <ReasonList reasons={decision.reasons} />
                    )}
                  </Cell>
                  <Cell label="Visitor">
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
                  </Cell>
                </Row>
              ))}
            </Table>
          )}
        </LoadedView>
        <KeysetPager
          pages={pages}
          nextCursor={loaded.state === 'ready' ? loaded.data.nextCursor : undefined}
        />
      </ScrollFrame>
    </section>
  )
}
