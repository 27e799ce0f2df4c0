import { Identity } from './identity'

export default function Page() {
  return (
    <main>
      <h1>Shop</h1>
      <p>This page and Tessera share one origin: the browser never talks to Tessera directly.</p>
      <Identity siteKey={process.env.NEXT_PUBLIC_TESSERA_SITE_KEY ?? ''} />
    </main>
  )
}
