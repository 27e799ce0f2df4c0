import type { ReactNode } from 'react'
import { ScrollFrame } from './ScrollFrame'
import { type Column, Table } from './Table'

/**
 * A table of rows (`Row`, `Cell`) under named columns, in its own frame: scrolling sideways there
 * when a wide screen is still too narrow, one block per row on a phone (`Table`).
 */
export function DataTable({
  label,
  columns,
  children,
}: {
  /** What the table holds: its name for screen readers. */
  label: string
  columns: readonly Column[]
  children: ReactNode
}) {
  return (
    <ScrollFrame label={`${label}, scrolling sideways`}>
      <Table aria-label={label} columns={columns}>
        {children}
      </Table>
    </ScrollFrame>
  )
}
