'use client'

import { useCallback } from 'react'
import type { EventFilter } from '@/contracts/console'
import { FormField } from '../FormField'
import { formatPercent } from '../format'
import { LoadedView } from '../LoadedView'
import { ScrollFrame } from '../ScrollFrame'
import { signalTitle } from '../SmartSignals'
import { Cell, Row, Table } from '../Table'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { AddressCell } from './AddressCell'
import { callConsole } from './api'
import styles from './console.module.css'
import { ExportLinks } from './ExportLinks'
import { FilterForm } from './FilterForm'
import { KeysetPager, useKeysetPages } from './KeysetPager'
import { usePolling } from './usePolling'

/** The events filters the console keeps in its address, besides `signal`. */
export const EVENT_FILTERS = ['from', 'to', 'minScore', 'maxScore', 'linkedId', 'ip'] as const
/** The filters, and the site the whole console shows (null: every site). */
export type EventFilterValues = Partial<Record<(typeof EVENT_FILTERS)[number] | 'site', string>>

/** The signal filters, as the list's select offers them (the console reads the address's by them). */
export const signalOptions: [EventFilter, string][] = [
  ['all', 'All events'],
  ['bot', 'Bots only'],
  ['new', 'New visitors'],
  ['returning', 'Returning visitors'],
  ['tampering', 'Tampering'],
  ['virtualMachine', 'Virtual machines'],
  ['privateMode', 'Private windows'],
  ['vpn', 'VPNs'],
  ['proxy', 'Proxies'],
  ['datacenter', 'Data centres'],
  ['tor', 'Tor'],
]

/** The latest identifications, filterable, one page at a time. */
export function RecentEvents({
  signal,
  filters,
  onSignal,
  onFilters,
  onOpenVisitor,
  onOpenEvent,
}: {
  /** The filters, kept in the address (?signal=, ?from=…) so a reload or a shared link keeps them. */
  signal: EventFilter
  filters: EventFilterValues
  onSignal: (signal: EventFilter) => void
  onFilters: (filters: Record<string, string | null>) => void
  onOpenVisitor: (visitorId: string) => void
  onOpenEvent: (requestId: string) => void
}) {
  const filterKey = JSON.stringify(filters)
  // Other filters (or another signal) are another list: its first page.
  const pages = useKeysetPages(`${signal} ${filterKey}`)
  const { loaded } = usePolling('GET /api/console/events', {
    query: { signal, ...filters, cursor: pages.cursor },
  })
  // Every site's events list whose each is: the names, by public key.
  const loadSites = useCallback(() => callConsole('GET /api/console/sites'), [])
  const { loaded: sites } = useLoaded(loadSites)
  const siteNames = new Map(
    sites.state === 'ready' ? sites.data.sites.map((site) => [site.publicKey, site.name]) : [],
  )
  const allSites = !filters.site

  return (
    <section aria-labelledby="events-heading" className={styles.section}>
      <div className={styles.sectionHeader}>
        <h2 id="events-heading">Recent events</h2>
        <span className={styles.row}>
          <ExportLinks query={{ kind: 'events', signal, ...filters }} what="these events" />
          <FormField label="Show" layout="inline">
            {(control) => (
              <select
                {...control}
                value={signal}
                onChange={(event) => {
                  onSignal(event.target.value as EventFilter)
                }}
              >
                {signalOptions.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </span>
      </div>
      <EventFilterForm key={filterKey} filters={filters} onApply={onFilters} />
      <ScrollFrame label="Events, scrolling sideways">
        <LoadedView
          loaded={loaded}
          loading="Loading events…"
          isEmpty={(data) => data.events.length === 0}
          empty="No events match. Identifications appear here as they happen."
        >
          {(data) => (
            <Table
              columns={[
                'Time',
                ...(allSites ? ['Site'] : []),
                'Visitor',
                'Confidence',
                'IP',
                'Signals',
                'Score',
              ]}
            >
              {data.events.map((event) => (
                <Row key={event.requestId}>
                  <Cell label="Time">
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => onOpenEvent(event.requestId)}
                    >
                      <Time iso={event.createdAt} />
                      <span className="visually-hidden">: event details</span>
                    </button>
                  </Cell>
                  {allSites && (
                    <Cell label="Site">
                      {event.siteKey ? (
                        (siteNames.get(event.siteKey) ?? 'a deleted site')
                      ) : (
                        <span className="muted">none</span>
                      )}
                    </Cell>
                  )}
                  <Cell label="Visitor">
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => onOpenVisitor(event.visitorId)}
                    >
                      <code>{event.visitorId}</code>
                    </button>
                    {!event.visitorFound && <span className={`badge ${styles.newBadge}`}>new</span>}
                  </Cell>
                  <Cell label="Confidence">{formatPercent(event.confidence.score)}</Cell>
                  <AddressCell ip={event.ip} ipInfo={event.signals.ipInfo} />
                  <Cell label="Signals">
                    <SignalBadges signals={event.signals} />
                  </Cell>
                  <Cell label="Score">{event.suspectScore}</Cell>
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

/** Days, score range, linked ID and address or range: what narrows the list beside the signal and site. */
function EventFilterForm({
  filters,
  onApply,
}: {
  filters: EventFilterValues
  onApply: (filters: Record<string, string | null>) => void
}) {
  const active = EVENT_FILTERS.filter((name) => filters[name]).length
  return (
    <FilterForm label="Filter events" active={active} onApply={onApply}>
      <FormField label="From (UTC day)">
        {(control) => <input {...control} type="date" name="from" defaultValue={filters.from ?? ''} />}
      </FormField>
      <FormField label="To (UTC day)">
        {(control) => <input {...control} type="date" name="to" defaultValue={filters.to ?? ''} />}
      </FormField>
      <FormField label="Score at least">
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            max={1000}
            name="minScore"
            defaultValue={filters.minScore ?? ''}
          />
        )}
      </FormField>
      <FormField label="Score at most">
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            max={1000}
            name="maxScore"
            defaultValue={filters.maxScore ?? ''}
          />
        )}
      </FormField>
      <FormField label="Linked ID">
        {(control) => <input {...control} name="linkedId" defaultValue={filters.linkedId ?? ''} />}
      </FormField>
      <FormField label="Address or CIDR range">
        {(control) => (
          <input {...control} name="ip" placeholder="203.0.113.0/24" defaultValue={filters.ip ?? ''} />
        )}
      </FormField>
    </FilterForm>
  )
}
