'use client'

import Link from 'next/link'
import { usePathname } from 'next/navigation'
import styles from './SiteHeader.module.css'

const links = [
  { href: '/', label: 'Console' },
  { href: '/device-fingerprint', label: 'Your device' },
  { href: '/registration', label: 'Sign up' },
] as const

export function SiteNav() {
  const pathname = usePathname()
  return (
    <nav aria-label="Main" className={styles.nav}>
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={pathname === link.href ? 'page' : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
