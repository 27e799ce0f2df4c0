'use client'

import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { useEffect, useRef, useState } from 'react'
import type { EventFilter } from '@/contracts/console'
import { allows, type Role } from '@/contracts/roles'
import { AccountMenu } from './AccountMenu'
import { ENDED_SESSION_USER, JUST_SIGNED_IN, SESSION_ENDED } from './api'
import styles from './console.module.css'
import { EventPanel } from './EventPanel'
import type { PublicPaths } from './embed-snippet'
import { Overview } from './Overview'
import { EVENT_FILTERS, RecentEvents, signalOptions } from './RecentEvents'
import { ReviewQueue } from './ReviewQueue'
import { RulesEditor } from './RulesEditor'
import { DECISION_FILTERS, SignupDecisions } from './SignupDecisions'
import { SiteSelector } from './SiteSelector'
import { SitesManager } from './SitesManager'
import { TeamPanel } from './TeamPanel'
import { TimeZoneToggle } from './TimeZoneToggle'
import { useAddressParams } from './useAddressParams'
import { VisitorLookup } from './VisitorLookup'

/** The events filter a shared address asks for; anything else is all events. */
function eventFilterOf(value: string | null): EventFilter {
  return signalOptions.find(([filter]) => filter === value)?.[0] ?? 'all'
}

/** The named parameters present in the address, as a filter's values. */
function paramsOf<Name extends string>(
  searchParams: URLSearchParams,
  names: readonly Name[],
): Partial<Record<Name, string>> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = searchParams.get(name)
      return value ? [[name, value]] : []
    }),
  ) as Partial<Record<Name, string>>
}

/** The signed-in console: live figures, events, look-up, sites and keys. */
export function Console({
  username,
  singleSignOn,
  role,
  origin,
  publicPaths,
  hostsConfigured,
  testOnlySettings,
}: {
  username: string
  /** Signs in through the OpenID Connect provider: no password to change here. */
  singleSignOn: boolean
  /** What the operator may do; the server enforces it, the console hides what it would refuse. */
  role: Role
  origin: string
  publicPaths: PublicPaths
  /** TESSERA_PUBLIC_URL or TESSERA_ALLOWED_HOSTS is set: requests for any other Host are refused. */
  hostsConfigured: boolean
  /** Test-only settings this server runs with (env.ts's testOnlySettings). */
  testOnlySettings: readonly string[]
}) {
  const router = useRouter()
  const pathname = usePathname()
  const searchParams = useSearchParams()
  const lookup = searchParams.get('lookup')
  const openEvent = searchParams.get('event')
  const signal = eventFilterOf(searchParams.get('signal'))
  const site = searchParams.get('site')
  const [siteName, setSiteName] = useState<string | null>(null)
  const eventFilterValues = { ...paramsOf(searchParams, EVENT_FILTERS), ...(site && { site }) }
  const decisionFilterValues = paramsOf(searchParams, DECISION_FILTERS)

  const changeParams = useAddressParams(searchParams.toString(), (search, how) =>
    router[how](`${pathname}${search ? `?${search}` : ''}`, { scroll: false }),
  )
  /** Keeps open panels and filters in the address (?lookup=, ?event=, ?signal=, ?from=…), so a link to them can be shared. */
  function setParams(changes: Record<string, string | null>) {
    changeParams((next) => {
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value)
        else next.delete(name)
      }
    })
  }
  const setParam = (name: 'lookup' | 'event' | 'signal', value: string | null) => setParams({ [name]: value })
  const setLookup = (query: string | null) => setParam('lookup', query)
  /** Each request to open a visitor, the one already open included: its panel comes into view. */
  const [visitorRequests, setVisitorRequests] = useState(0)
  function openVisitor(visitorId: string, changes: Record<string, string | null> = {}) {
    setParams({ lookup: visitorId, ...changes })
    setVisitorRequests((count) => count + 1)
  }

  /**
   * An event's dialog is a step of its own in the browser's history: opened here it is pushed, so
   * Back closes it rather than leaving the console, and closing it goes back. One opened from a
   * link (or one entry up after Forward) is closed in place.
   */
  const eventPushed = useRef(false)
  const sessionEnded = useSessionEnded()
  useEffect(() => {
    if (!openEvent) eventPushed.current = false
  }, [openEvent])
  function openEventDialog(requestId: string) {
    if (openEvent) return setParam('event', requestId)
    eventPushed.current = true
    changeParams((next) => next.set('event', requestId), 'push')
  }
  function closeEventDialog() {
    if (!eventPushed.current) return setParam('event', null)
    eventPushed.current = false
    router.back()
  }

  const heading = useSignedInHeading()

  return (
    <div className={`container ${styles.console}`}>
      <header className={styles.consoleHeader}>
        <div>
          <h1 ref={heading} tabIndex={-1}>
            Console
          </h1>
          <p className="muted">Identifications and sign-up decisions on this Tessera server, live.</p>
        </div>
        <div className={styles.headerTools}>
          <SiteSelector site={site} onSite={(next) => setParams({ site: next })} onName={setSiteName} />
          <TimeZoneToggle />
          <AccountMenu username={username} singleSignOn={singleSignOn} />
        </div>
      </header>
      <ConsoleSections role={role} />
      {sessionEnded && (
        <div role="alert" className={styles.sessionEnded}>
          <p>
            <strong>Your session has ended.</strong> You signed out in another tab, it expired, your password
            was changed in another session, or an owner removed your account. Nothing here can be read or
            changed until you sign in again.
          </p>
          <button
            type="button"
            className="button"
            onClick={() => {
              sessionStorage.setItem(ENDED_SESSION_USER, username)
              router.refresh()
            }}
          >
            Sign in again
          </button>
        </div>
      )}
      {!hostsConfigured && (
        <p role="alert" className={styles.hostWarning}>
          <strong>TESSERA_PUBLIC_URL is not set</strong>, so this server answers any host name. A web page on
          a domain pointed at this server’s address (DNS rebinding) then counts as one of Tessera’s own pages.
          In production, set <code>TESSERA_PUBLIC_URL</code> (and <code>TESSERA_ALLOWED_HOSTS</code> for any
          other name it is reached by) and restart.
        </p>
      )}
      {testOnlySettings.length > 0 && (
        <p role="alert" className={styles.hostWarning}>
          <strong>This server runs with test-only settings</strong>:{' '}
          {testOnlySettings.map((name, index) => (
            <span key={name}>
              {index > 0 && ', '}
              <code>{name}</code>
            </span>
          ))}
          . They exist for the test suite (webhooks to private networks, screens that fail on purpose). Never
          run a production server like this: unset them and restart.
        </p>
      )}
      <Overview site={site} />
      <VisitorLookup
        query={lookup}
        site={site}
        onQuery={setLookup}
        opened={visitorRequests}
        canForget={allows(role, 'admin')}
      />
      <RecentEvents
        signal={signal}
        filters={eventFilterValues}
        onSignal={(next) => setParam('signal', next === 'all' ? null : next)}
        onFilters={setParams}
        onOpenVisitor={openVisitor}
        onOpenEvent={openEventDialog}
      />
      {/* Another site's queue is another queue: the latest verdict to undo was this one's. (Keys
          differ between siblings: two alike made React keep stale copies of both.) */}
      <ReviewQueue key={`reviews:${site ?? ''}`} site={site} onOpenEvent={openEventDialog} />
      <SignupDecisions
        site={site}
        filters={decisionFilterValues}
        onFilters={setParams}
        onOpenVisitor={openVisitor}
        onOpenEvent={openEventDialog}
      />
      {openEvent && (
        <EventPanel
          key={openEvent}
          requestId={openEvent}
          onClose={closeEventDialog}
          onOpenVisitor={(visitorId) => {
            // The visitor takes the dialog's place: one address, no step back to the event.
            eventPushed.current = false
            openVisitor(visitorId, { event: null })
          }}
        />
      )}
      <RulesEditor
        key={`rules:${site ?? ''}`}
        readOnly={!allows(role, 'admin')}
        site={site}
        siteName={siteName}
      />
      {allows(role, 'admin') ? (
        <SitesManager origin={origin} publicPaths={publicPaths} />
      ) : (
        <p className="muted">Sites, keys, lists and webhooks are run by admins: your role is {role}.</p>
      )}
      {allows(role, 'owner') && <TeamPanel />}
    </div>
  )
}

/** The console's sections in page order, each linking to its heading; those the role sees. */
function ConsoleSections({ role }: { role: Role }) {
  const sections = [
    ['overview-heading', 'Overview'],
    ['lookup-heading', 'Look-up'],
    ['events-heading', 'Events'],
    ['review-heading', 'Review queue'],
    ['decisions-heading', 'Decisions'],
    ['rules-heading', 'Rules'],
    ...(allows(role, 'admin') ? [['sites-heading', 'Sites and keys']] : []),
    ...(allows(role, 'owner') ? [['team-heading', 'Team']] : []),
  ]
  return (
    <nav aria-label="Console sections" className={styles.sections}>
      <ul>
        {sections.map(([id, label]) => (
          <li key={id}>
            <a href={`#${id}`}>{label}</a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** Whether a console call has found the session gone (api.ts dispatches SESSION_ENDED). */
function useSessionEnded() {
  const [ended, setEnded] = useState(false)
  useEffect(() => {
    // Signed in (by password or single sign-on): an earlier session's end is no news any more.
    sessionStorage.removeItem(ENDED_SESSION_USER)
    const onEnded = () => setEnded(true)
    window.addEventListener(SESSION_ENDED, onEnded)
    return () => window.removeEventListener(SESSION_ENDED, onEnded)
  }, [])
  return ended
}

/**
 * The sign-in form sat far down the signed-out page: once signed in, the console opens at its top
 * with its heading focused, not where the form was.
 */
function useSignedInHeading() {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (sessionStorage.getItem(JUST_SIGNED_IN) === null) return
    sessionStorage.removeItem(JUST_SIGNED_IN)
    window.scrollTo(0, 0)
    heading.current?.focus()
  }, [])
  return heading
}
