'use client'

import { useEffect } from 'react'
import { ErrorScreen } from '@/components/ErrorScreen'

const TITLE = 'Something went wrong · Tessera'

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  // The tab says what the page does: the failed page's own title would name a screen not shown.
  useEffect(() => {
    const before = document.title
    document.title = TITLE
    return () => {
      // Put back only if no page set its own since (a navigation commits the next one's first).
      if (document.title === TITLE) document.title = before
    }
  }, [])
  return <ErrorScreen error={error} onRetry={retry} />
}
