'use client'

import type { ReactNode } from 'react'
import { EmptyNote, ErrorNote, LoadingNote } from './Notes'
import type { Loaded } from './useLoaded'

/**
 * Every panel's three states before its content: the loading line (announced politely), the
 * error (announced at once, with "Try again" when the panel can), and, when the answer holds
 * nothing, the panel's own empty message.
 */
export function LoadedView<T>({
  loaded,
  loading,
  isEmpty,
  empty,
  onRetry,
  children,
}: {
  loaded: Loaded<T>
  /** What the loading line says, e.g. "Loading events…". */
  loading: string
  isEmpty?: (data: T) => boolean
  empty?: ReactNode
  onRetry?: () => void
  children: (data: T) => ReactNode
}) {
  if (loaded.state === 'loading') return <LoadingNote>{loading}</LoadingNote>
  if (loaded.state === 'error') {
    return (
      <ErrorNote
        action={
          onRetry && (
            <button type="button" className="button button-secondary" onClick={onRetry}>
              Try again
            </button>
          )
        }
      >
        {loaded.message}
      </ErrorNote>
    )
  }
  if (isEmpty?.(loaded.data)) return <EmptyNote>{empty}</EmptyNote>
  return children(loaded.data)
}
