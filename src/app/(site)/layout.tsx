import type { ReactNode } from 'react'
import { ClientFault } from '@/components/ClientFault'
import { SiteFooter } from '@/components/SiteFooter'
import { SiteHeader } from '@/components/SiteHeader'
import { FAULT_COOKIE, faultsEnabled, throwIfFault } from '@/server/faults/throw-if-fault'

/** Chrome shared by the three navigable screens (/frame stays bare for iframe use). */
export default async function SiteLayout({ children }: { children: ReactNode }) {
  await throwIfFault('server')
  return (
    <>
      <a href="#main" className="visually-hidden skip-link">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main">{children}</main>
      <SiteFooter />
      {faultsEnabled() ? <ClientFault cookieName={FAULT_COOKIE} /> : null}
    </>
  )
}
