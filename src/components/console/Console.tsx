'use client'

import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { AccountMenu } from './AccountMenu'
import styles from './console.module.css'
import type { PublicPaths } from './embed-snippet'
import { Overview } from './Overview'
import { RecentEvents } from './RecentEvents'
import { RulesEditor } from './RulesEditor'
import { SignupDecisions } from './SignupDecisions'
import { SitesManager } from './SitesManager'
import { VisitorLookup } from './VisitorLookup'

/** The signed-in console: live figures, events, look-up, sites and keys. */
export function Console({
  username,
  origin,
  publicPaths,
}: {
  username: string
  origin: string
  publicPaths: PublicPaths
}) {
  const router = useRouter()
  const pathname = usePathname()
  const searchParams = useSearchParams()
  const lookup = searchParams.get('lookup')

  function setLookup(query: string | null) {
    const next = new URLSearchParams(searchParams)
    if (query) next.set('lookup', query)
    else next.delete('lookup')
    const search = next.toString()
    router.replace(`${pathname}${search ? `?${search}` : ''}`, { scroll: false })
  }

  return (
    <div className={`container ${styles.console}`}>
      <header className={styles.consoleHeader}>
        <div>
          <h1>Console</h1>
          <p className="muted">Identifications and sign-up decisions on this Tessera server, live.</p>
        </div>
        <AccountMenu username={username} />
      </header>
      <Overview />
      <VisitorLookup query={lookup} onQuery={setLookup} />
      <RecentEvents onOpenVisitor={setLookup} />
      <SignupDecisions onOpenVisitor={setLookup} />
      <RulesEditor />
      <SitesManager origin={origin} publicPaths={publicPaths} />
    </div>
  )
}
