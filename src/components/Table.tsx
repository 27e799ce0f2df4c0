import type { ComponentProps, ReactNode } from 'react'
import tables from './Table.module.css'

// Every role below is the element's own, written out on purpose: on a phone the stacked layout
// changes the elements' `display`, and Safari and Firefox then drop a table's semantics unless its
// roles are explicit (https://adrianroselli.com/2018/02/tables-css-display-properties-and-aria.html).
// Hence the biome-ignore comments (lint/a11y/noRedundantRoles).

/** A column: its name, or its name with a class for its header (hidden: for screen readers only). */
export type Column = string | { name: string; className?: string; hidden?: boolean }

/**
 * A table of rows under named columns that, on a phone, shows each row as a block of its own: every
 * cell's value under the others, after its column's name (`Cell`'s `label`), so nothing lies off
 * the screen's edge while screen readers and keyboards still meet a table (rows, cells, headers).
 */
export function Table({
  columns,
  caption,
  captionHidden = false,
  className,
  children,
  ...rest
}: {
  columns: readonly Column[]
  caption?: ReactNode
  /** The caption names the table for screen readers only. */
  captionHidden?: boolean
  className?: string
  children: ReactNode
} & Omit<ComponentProps<'table'>, 'className' | 'children'>) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display (above).
    <table role="table" className={classes(tables.table, tables.stacked, className)} {...rest}>
      {caption !== undefined && (
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
      )}
      {/* biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display. */}
      <thead role="rowgroup">
        {/* biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display. */}
        <tr role="row">
          {columns.map((column) => {
            const {
              name,
              className: headerClass,
              hidden,
            } = typeof column === 'string' ? { name: column, className: undefined, hidden: false } : column
            return (
              // biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display.
              <th role="columnheader" scope="col" key={name} className={headerClass}>
                {hidden ? <span className="visually-hidden">{name}</span> : name}
              </th>
            )
          })}
        </tr>
      </thead>
      {/* biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display. */}
      <tbody role="rowgroup">{children}</tbody>
    </table>
  )
}

/** A row of a `Table`. */
export function Row(props: ComponentProps<'tr'>) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display.
  return <tr role="row" {...props} />
}

/**
 * A cell of a `Table`; `label` is its column's name (or a short form of it), shown before the value
 * on a phone, where the column headers are hidden. Screen readers have the headers, so the label is
 * left out of the cell's text. Without one, the cell takes the row's whole width there (its actions).
 */
export function Cell({ label, ...props }: ComponentProps<'td'> & { label?: string }) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display.
  return <td role="cell" data-label={label} {...props} />
}

/** A row's own name, in its first column: on a phone, the title of the row's block. */
export function RowHeader({ className, ...props }: ComponentProps<'th'>) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the stacked layout changes its display.
  return <th role="rowheader" scope="row" className={classes(tables.rowHeader, className)} {...props} />
}

function classes(...names: (string | undefined | false)[]): string {
  return names.filter(Boolean).join(' ')
}
