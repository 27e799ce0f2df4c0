'use client'

import { useCallback } from 'react'
import { DataTable } from '../DataTable'
import { formatCount } from '../format'
import { LoadedView } from '../LoadedView'
import { EmptyNote } from '../Notes'
import { Cell, Row } from '../Table'
import tables from '../Table.module.css'
import { Time } from '../Time'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'
import styles from './console.module.css'

/** The visitors seen from an address or a CIDR range; each opens its own panel. */
export function NetworkVisitorsPanel({
  query,
  onQuery,
  onClose,
}: {
  query: string
  onQuery: (query: string) => void
  onClose: () => void
}) {
  const load = useCallback(() => callConsole('GET /api/console/network', { query: { q: query } }), [query])
  return (
    <LoadedView loaded={useLoaded(load).loaded} loading={`Looking up visitors from ${query}…`}>
      {(data) => (
        <section className={`card ${styles.panel}`} aria-labelledby="network-heading">
          <div className={styles.panelHeader}>
            <h3 id="network-heading">
              Visitors from <code>{data.range}</code>
            </h3>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Close
            </button>
          </div>
          <p className="muted">
            Seen over the last {data.days} days, the most recent first
            {data.more ? ` (the latest ${formatCount(data.visitors.length)} are listed)` : ''}.{' '}
            {!data.range.includes('/') && (
              <button type="button" className={styles.linkButton} onClick={() => onQuery(widen(data.range))}>
                Show its whole {data.range.includes(':') ? '/56' : '/24'}
              </button>
            )}
          </p>
          {data.visitors.length === 0 ? (
            <EmptyNote>No visitor came from {data.range} in this time.</EmptyNote>
          ) : (
            <DataTable
              label="Visitors seen from this network"
              columns={['Visitor', 'Last seen', 'Identifications', 'Addresses', 'Linked IDs']}
            >
              {data.visitors.map((visitor) => (
                <Row key={visitor.visitorId}>
                  <Cell label="Visitor">
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => onQuery(visitor.visitorId)}
                    >
                      <code>{visitor.visitorId}</code>
                    </button>
                  </Cell>
                  <Cell label="Last seen">
                    <Time iso={visitor.lastSeenAt} />
                  </Cell>
                  <Cell label="Identifications">{formatCount(visitor.events)}</Cell>
                  <Cell label="Addresses" className={tables.unbroken}>
                    {visitor.ips.join(', ')}
                  </Cell>
                  <Cell label="Linked IDs" className={tables.unbroken}>
                    {visitor.linkedIds.join(', ') || <span className="muted">none</span>}
                  </Cell>
                </Row>
              ))}
            </DataTable>
          )}
        </section>
      )}
    </LoadedView>
  )
}

/** The /24 (IPv6: /56) around one address, as the server indexes networks. */
function widen(address: string): string {
  return `${address}/${address.includes(':') ? 56 : 24}`
}
