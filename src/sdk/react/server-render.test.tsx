// Server rendering: Node, no DOM. Nothing may touch a browser global while rendering.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TesseraProvider, useVisitorData } from './index'

function Visitor() {
  const { data, isLoading, error } = useVisitorData({ linkedId: 'account-42', tag: { page: 'home' } })
  return <p>{isLoading ? 'Checking your device…' : (data?.visitorId ?? error?.message)}</p>
}

describe('TesseraProvider and useVisitorData on the server', () => {
  it('render the loading state without errors', () => {
    expect(typeof window).toBe('undefined')
    const html = renderToString(
      <TesseraProvider siteKey="pk_test" endpoint="https://tessera.example" cache="sessionStorage">
        <Visitor />
      </TesseraProvider>,
    )
    expect(html).toBe('<p>Checking your device…</p>')
  })
})
