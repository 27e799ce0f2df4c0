import { Identity } from './identity'

// NEXT_PUBLIC_ variables are read when the app is built (and by `next dev` at start).
const siteKey = process.env.NEXT_PUBLIC_TESSERA_SITE_KEY

export default function Page() {
  return (
    <main>
      <h1>Shop</h1>
      <p>This page and Tessera share one origin: the browser never talks to Tessera directly.</p>
      {siteKey ? (
        <Identity siteKey={siteKey} />
      ) : (
        <p role="alert">
          Set NEXT_PUBLIC_TESSERA_SITE_KEY to your site&apos;s public key (the console lists it), then build
          or start this app again.
        </p>
      )}
    </main>
  )
}
