import Link from 'next/link'
import { SiteHeader } from '@/components/SiteHeader'

export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="container" style={{ padding: '5rem 0', maxWidth: '40rem' }}>
        <p className="badge">404</p>
        <h1>This page does not exist</h1>
        <p className="muted">
          The address may be mistyped, or the page may have moved. Tessera has four screens: the console, your
          device, the sign-up form and the embeddable frame.
        </p>
        <p>
          <Link href="/" className="button">
            Go to the console
          </Link>
        </p>
      </main>
    </>
  )
}
