'use client'

import { useState } from 'react'
import type { SiteSummary } from '@/contracts/console'
import { FormField } from '../FormField'
import { ErrorNote, SuccessNote } from '../Notes'
import { callConsole } from './api'
import styles from './console.module.css'
import { splitEntries } from './split-entries'
import { useFormAction } from './useFormAction'

/**
 * The site's blocked addresses and CIDR ranges: identifications from them carry the ipBlocklist
 * signal, and the sign-up rule "Blocked networks" denies them by default.
 */
export function SiteBlocklist({ site, onChange }: { site: SiteSummary; onChange: () => Promise<void> }) {
  const { errors, submit } = useFormAction(['blockedNetworks'], 'The blocklist was not saved.')
  const [saved, setSaved] = useState(false)

  return (
    <form
      className={styles.stack}
      onSubmit={async (event) => {
        setSaved(false)
        const ok = await submit(event, async (data) => {
          await callConsole('PUT /api/console/sites/:siteId/blocklist', {
            params: { siteId: site.id },
            body: { blockedNetworks: splitEntries(String(data.get('blockedNetworks') ?? '')) },
          })
          await onChange()
        })
        setSaved(ok)
      }}
    >
      <FormField
        label="Blocked networks"
        hint="Addresses or CIDR ranges, one per line (203.0.113.0/24, 2001:db8::/32). Identifications from them are flagged, and sign-ups denied unless you change the rule."
        error={errors.fields.blockedNetworks}
      >
        {(control) => (
          <textarea
            {...control}
            name="blockedNetworks"
            rows={Math.min(Math.max(site.blockedNetworks.length + 1, 2), 10)}
            defaultValue={site.blockedNetworks.join('\n')}
            placeholder="203.0.113.0/24"
          />
        )}
      </FormField>
      {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      <div className={styles.row}>
        <button type="submit" className="button button-secondary">
          Save blocklist
        </button>
        {saved && <SuccessNote>Saved.</SuccessNote>}
      </div>
    </form>
  )
}
