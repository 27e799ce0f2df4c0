'use client'

import { type FormEvent, useState } from 'react'
import { normaliseNetwork } from '@/contracts/network-range'
import { FormField } from '../FormField'
import { SuccessNote } from '../Notes'
import styles from './console.module.css'
import { NetworkVisitorsPanel } from './NetworkVisitorsPanel'
import { VisitorPanel } from './VisitorPanel'

/**
 * Look-up by visitor ID, request ID or account (linked ID), or of the visitors of an address or a
 * CIDR range; the panel lives in ?lookup=.
 */
export function VisitorLookup({
  query,
  site,
  onQuery,
  opened,
  canForget,
}: {
  query: string | null
  /** Counts the requests to open a visitor from elsewhere in the console (VisitorPanel). */
  opened: number
  /** The operator's role may forget a visitor (admins and owners). */
  canForget: boolean
  /** The console's site: the visitor's history on it alone (null: every site). */
  site: string | null
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
                // The look-up's own bound (contracts/console.ts): nothing longer can be typed or pasted.
                maxLength={256}
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
            key={`${query} ${site ?? ''}`}
            query={query}
            site={site}
            onQuery={onQuery}
            opened={opened}
            onClose={() => onQuery(null)}
            onForgotten={canForget ? forgotten : undefined}
          />
        ))}
    </section>
  )
}
