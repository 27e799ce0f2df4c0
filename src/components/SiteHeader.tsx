import Link from 'next/link'
import styles from './SiteHeader.module.css'
import { SiteNav } from './SiteNav'

export function SiteHeader() {
  return (
    <header className={styles.header}>
      <div className={`container ${styles.inner}`}>
        <Link href="/" className={styles.brand}>
          <svg aria-hidden="true" width="26" height="26" viewBox="0 0 26 26" className={styles.logo}>
            <rect x="1" y="1" width="11" height="11" rx="3" />
            <rect x="14" y="1" width="11" height="11" rx="3" opacity="0.55" />
            <rect x="1" y="14" width="11" height="11" rx="3" opacity="0.55" />
            <rect x="14" y="14" width="11" height="11" rx="3" opacity="0.25" />
          </svg>
          Tessera
        </Link>
        <SiteNav />
      </div>
    </header>
  )
}
