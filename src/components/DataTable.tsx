import type { ReactNode } from 'react'
import tables from './Table.module.css'

/**
 * A table of rows under named columns, scrolling sideways in its own frame when narrow. The frame
 * takes the focus, so a keyboard can scroll it even when no cell holds a control.
 */
export function DataTable({
  label,
  columns,
  children,
}: {
  /** What the table holds, naming its frame for screen readers. */
  label: string
  columns: readonly string[]
  children: ReactNode
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling frame must be reachable by keyboard (WCAG 2.1.1).
    <section className={tables.frame} aria-label={label} tabIndex={0}>
      <table className={tables.table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  )
}
