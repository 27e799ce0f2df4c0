import type { ReactNode } from 'react'

export const metadata = { title: 'Shop — Tessera first-party example' }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body
        style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '3rem auto', padding: '0 1rem' }}
      >
        {children}
      </body>
    </html>
  )
}
