import type { ReactNode } from 'react'
import tables from './Table.module.css'

/** A table of rows under named columns, scrolling sideways in its own frame when narrow. */
export function DataTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    <div className={tables.frame}>
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
    </div>
  )
}
