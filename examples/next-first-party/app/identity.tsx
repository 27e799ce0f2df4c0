'use client'

import { TesseraProvider, useVisitorData } from 'tessera/react'

function Visitor() {
  const { data, isLoading, error, getData } = useVisitorData({ tag: { page: 'home' } })
  if (error) return <p role="alert">Could not identify this device: {error.message}</p>
  if (isLoading || !data) return <p aria-live="polite">Checking your device…</p>
  return (
    <>
      <p>
        Visitor ID <code>{data.visitorId}</code> (request <code>{data.requestId}</code>)
      </p>
      <button type="button" onClick={() => getData({ ignoreCache: true })}>
        Identify again
      </button>
    </>
  )
}

/** Tessera's API is answered by this app under /metrics/r (see app/metrics/[...path]/route.ts). */
export function Identity({ siteKey }: { siteKey: string }) {
  return (
    <TesseraProvider siteKey={siteKey} apiPrefix="/metrics/r">
      <Visitor />
    </TesseraProvider>
  )
}
