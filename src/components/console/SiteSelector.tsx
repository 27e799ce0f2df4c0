'use client'

import { useCallback, useEffect } from 'react'
import { FormField } from '../FormField'
import { useLoaded } from '../useLoaded'
import { callConsole, SITES_CHANGED } from './api'

/**
 * The site every panel shows (overview, events, decisions, review queue, look-up history), kept in
 * the address (?site=<public key>); all sites when none is chosen.
 */
export function SiteSelector({
  site,
  onSite,
  onName,
}: {
  site: string | null
  onSite: (site: string | null) => void
  /** Tells the console the chosen site's name, for panels that say whose they are. */
  onName: (name: string | null) => void
}) {
  const load = useCallback(() => callConsole('GET /api/console/sites'), [])
  const { loaded, reload } = useLoaded(load)
  useEffect(() => {
    const onChanged = () => void reload()
    window.addEventListener(SITES_CHANGED, onChanged)
    return () => window.removeEventListener(SITES_CHANGED, onChanged)
  }, [reload])
  const sites = loaded.state === 'ready' ? loaded.data.sites : []
  const name = sites.find((entry) => entry.publicKey === site)?.name ?? null
  useEffect(() => onName(name), [name, onName])
  return (
    <FormField label="Site" layout="inline">
      {(control) => (
        <select {...control} value={site ?? ''} onChange={(event) => onSite(event.target.value || null)}>
          <option value="">All sites</option>
          {sites.map((entry) => (
            <option key={entry.id} value={entry.publicKey}>
              {entry.name}
            </option>
          ))}
          {/* A shared link naming a site this list does not hold (yet) still shows what it asks for. */}
          {site && loaded.state === 'ready' && !sites.some((entry) => entry.publicKey === site) && (
            <option value={site}>Unknown site</option>
          )}
        </select>
      )}
    </FormField>
  )
}
