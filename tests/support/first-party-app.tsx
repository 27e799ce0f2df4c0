// The integrator's page of sdks.spec.ts: React with Tessera's React SDK, as built (`tessera/react`
// is bundled from dist/react by first-party-site.ts). Its settings come from #root's data set.
import { createRoot } from 'react-dom/client'
import { TesseraProvider, useVisitorData } from 'tessera/react'

function Identity() {
  const { data, isLoading, error } = useVisitorData({ linkedId: 'shopper-1', tag: { page: 'checkout' } })
  if (error) return <p data-testid="error">{error.message}</p>
  if (isLoading || !data) return <p>Checking your device…</p>
  return (
    <p>
      Visitor <span data-testid="visitor-id">{data.visitorId}</span>, request{' '}
      <span data-testid="request-id">{data.requestId}</span>
    </p>
  )
}

const root = document.getElementById('root')
if (root) {
  const { siteKey = '', endpoint, apiPrefix } = root.dataset
  createRoot(root).render(
    <TesseraProvider siteKey={siteKey} endpoint={endpoint || undefined} apiPrefix={apiPrefix || undefined}>
      <Identity />
    </TesseraProvider>,
  )
}
