'use client'

import type { SiteSummary } from '@/contracts/console'
import { callConsole } from './api'
import { EntryListForm } from './EntryListForm'

/**
 * The site's blocked addresses and CIDR ranges: identifications from them carry the ipBlocklist
 * signal, and the sign-up rule "Blocked networks" denies them by default.
 */
export function SiteBlocklist({ site, onChange }: { site: SiteSummary; onChange: () => Promise<void> }) {
  return (
    <EntryListForm
      name="blockedNetworks"
      label="Blocked networks"
      hint="Addresses or CIDR ranges, one per line (203.0.113.0/24, 2001:db8::/32). Identifications from them are flagged, and sign-ups denied unless you change the rule."
      entries={site.blockedNetworks}
      minRows={2}
      placeholder="203.0.113.0/24"
      saveLabel="Save blocklist"
      notSaved="The blocklist was not saved."
      save={async (blockedNetworks) => {
        await callConsole('PUT /api/console/sites/:siteId/blocklist', {
          params: { siteId: site.id },
          body: { blockedNetworks },
        })
        await onChange()
      }}
    />
  )
}
