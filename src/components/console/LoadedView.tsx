'use client'

import type { ReactNode } from 'react'
import styles from './console.module.css'
import type { Loaded } from './usePolling'

/**
 * Every console panel's three states before its content: "Loading …" (announced politely), the
 * error (announced at once), and, when the answer holds nothing, the panel's own empty message.
 */
export function LoadedView<T>({
  loaded,
  what,
  isEmpty,
  empty,
  children,
}: {
  loaded: Loaded<T>
  /** What is loading, for "Loading <what>…". */
  what: string
  isEmpty?: (data: T) => boolean
  empty?: ReactNode
  children: (data: T) => ReactNode
}) {
  if (loaded.state === 'loading') {
    return (
      <p role="status" className="muted">
        Loading {what}…
      </p>
    )
  }
  if (loaded.state === 'error') {
    return (
      <p role="alert" className={styles.error}>
        {loaded.message}
      </p>
    )
  }
  if (isEmpty?.(loaded.data)) return <p className="muted">{empty}</p>
  return children(loaded.data)
}
