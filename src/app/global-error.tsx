'use client'

import { ErrorScreen } from '@/components/ErrorScreen'

/** Replaces the root layout when it fails, so it brings its own document. */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body style={{ margin: 0 }}>
        <title>Something went wrong · Tessera</title>
        <ErrorScreen error={error} onRetry={retry} />
      </body>
    </html>
  )
}
