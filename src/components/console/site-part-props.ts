import type { SiteSummary } from '@/contracts/console'

/** What each part of a site's card (SiteCard, SealingKeys, Webhooks) is given. */
export type SitePartProps = {
  site: SiteSummary
  /** Runs a button's console call, shows its error on the card, and reloads the sites on success. */
  run: (action: () => Promise<unknown>) => Promise<boolean>
  onChange: () => Promise<void>
}
