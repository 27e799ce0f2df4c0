import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'
import { throwIfFault } from '@/server/faults/throw-if-fault'
import { inter } from './fonts'
import './globals.css'

export const metadata: Metadata = {
  title: { default: 'Tessera', template: '%s · Tessera' },
  description: 'Self-hosted device identification and sign-up protection.',
}

// Every screen reads per-request state (database, sessions, site keys), so none is prerendered.
export const dynamic = 'force-dynamic'

export const viewport: Viewport = { width: 'device-width', initialScale: 1 }

export default async function RootLayout({ children }: { children: ReactNode }) {
  await throwIfFault('layout')
  return (
    <html lang="en" className={inter.variable}>
      <body>{children}</body>
    </html>
  )
}
