'use client'

import { useEffect } from 'react'
import { ErrorScreen } from '@/components/ErrorScreen'

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  // The tab says what the page does: the failed page's own title would name a screen not shown.
  useEffect(() => {
    const before = document.title
    document.title = 'Something went wrong · Tessera'
    return () => {
      document.title = before
    }
  }, [])
  return <ErrorScreen error={error} onRetry={retry} />
}
