'use client'

import { useState } from 'react'
import styles from './console.module.css'

/**
 * Keyset pages of a list, newest first: the cursors walked so far (the last one is the page
 * shown), back to the first page whenever `listKey` (the filters) changes.
 */
export function useKeysetPages(listKey: string) {
  const [cursors, setCursors] = useState<string[]>([])
  const [shownFor, setShownFor] = useState(listKey)
  if (shownFor !== listKey) {
    setShownFor(listKey)
    setCursors([])
  }
  return {
    cursor: cursors[cursors.length - 1],
    newer: cursors.length > 0 ? () => setCursors((previous) => previous.slice(0, -1)) : null,
    older: (next: string) => setCursors((previous) => [...previous, next]),
  }
}

/** "Newer" and "Older" under a list; Older while the answer shown names a next page. */
export function KeysetPager({
  pages,
  nextCursor,
}: {
  pages: ReturnType<typeof useKeysetPages>
  /** The shown answer's next cursor; null on the last page, undefined while none is shown. */
  nextCursor: string | null | undefined
}) {
  return (
    <div className={styles.pager}>
      <button
        type="button"
        className="button button-secondary"
        disabled={!pages.newer}
        onClick={() => pages.newer?.()}
      >
        Newer
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={!nextCursor}
        onClick={() => {
          if (nextCursor) pages.older(nextCursor)
        }}
      >
        Older
      </button>
    </div>
  )
}
