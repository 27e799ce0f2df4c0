'use client'

import type { ReactNode } from 'react'
import styles from './console.module.css'

/**
 * A panel's filters as a form: the fields are named after the address's parameters, and "Apply"
 * hands the filled ones over (blank fields drop their filter). Open while any filter is on.
 */
export function FilterForm({
  label,
  active,
  onApply,
  children,
}: {
  /** The panel's name: "Filter events". */
  label: string
  /** How many filters are on now. */
  active: number
  onApply: (values: Record<string, string | null>) => void
  children: ReactNode
}) {
  return (
    <details className={styles.filters} open={active > 0 || undefined}>
      <summary>
        {label}
        {active > 0 && <span className="badge">{active} on</span>}
      </summary>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          const values: Record<string, string | null> = {}
          for (const [name, value] of new FormData(event.currentTarget))
            values[name] = String(value).trim() || null
          onApply(values)
        }}
        onReset={(event) => {
          const names = [...new FormData(event.currentTarget).keys()]
          onApply(Object.fromEntries(names.map((name) => [name, null])))
        }}
      >
        <div className={styles.filterFields}>{children}</div>
        <div className={styles.row}>
          <button type="submit" className="button button-secondary">
            Apply filters
          </button>
          <button type="reset" className="button button-secondary">
            Clear filters
          </button>
        </div>
      </form>
    </details>
  )
}
