'use client'

import type { ExportRequest } from '@/contracts/console'
import { consoleUrl } from './api'
import styles from './console.module.css'

/** "Export CSV" and "Export JSON" for what a panel shows: the server streams the whole of it. */
export function ExportLinks({ query, what }: { query: Omit<ExportRequest, 'format'>; what: string }) {
  return (
    <span className={styles.row}>
      {(['csv', 'json'] as const).map((format) => (
        <a
          key={format}
          className="button button-secondary"
          href={consoleUrl('GET /api/console/export', { query: { ...query, format } })}
          download
          aria-label={`Export ${format.toUpperCase()} of ${what}`}
        >
          Export {format.toUpperCase()}
        </a>
      ))}
    </span>
  )
}
