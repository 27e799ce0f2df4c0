'use client'

import { ErrorScreen } from '@/components/ErrorScreen'

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorScreen error={error} onRetry={retry} />
}
