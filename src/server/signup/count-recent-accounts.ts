import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { ACCOUNT_LIMIT_WINDOW_HOURS } from './device-mark'

/**
 * How much older than an account another browser must be for that account not to count fully
 * against it. Without a lead, browsers opened together for a burst of sign-ups (private windows,
 * each a new browser) would each predate the others' accounts and excuse them.
 */
export const OLDER_BROWSER_LEAD_MINUTES = 60

/** The device a sign-up comes from, as its identification event tells it. */
export interface SignupDevice {
  visitorId: string
  /** Keyed hash of the fingerprint profile (device-mark.ts), which survives a forget. */
  mark: string | null
  /** The browser's own ID from its token; null for an event without one. */
  browserId: string | null
  /** When this browser was first identified (its token's age). */
  browserFirstSeen: string | null
}

/**
 * Accounts created in the rule's window by this device: by this visitor, or by the same device
 * under an earlier visitor ID (forgotten since), found by its device mark; and accounts for the
 * same inbox (mailbox-of.ts) from any device. Counted apart, as they can only challenge: the
 * ones other browsers created more than OLDER_BROWSER_LEAD_MINUTES after this browser was first
 * seen (this browser held its token before they existed, so they cannot be its own), and the
 * inbox's accounts from other devices (anyone can type `grace+1@`: that must not get Grace denied).
 */
export async function countRecentAccounts(db: Database, device: SignupDevice, now: Date, mailbox: string) {
  const since = new Date(now.getTime() - ACCOUNT_LIMIT_WINDOW_HOURS * 3_600_000).toISOString()
  const newer =
    device.browserId === null || device.browserFirstSeen === null
      ? sql`false`
      : sql`a.browser_id is not null and a.browser_id <> ${device.browserId}
            and a.created_at > ${device.browserFirstSeen}::timestamptz
              + make_interval(mins => ${OLDER_BROWSER_LEAD_MINUTES})`
  const sameDevice =
    device.mark === null
      ? sql`a.visitor_id = ${device.visitorId}`
      : sql`(a.visitor_id = ${device.visitorId} or a.device_mark = ${device.mark})`
  const [counts] = await selectRows(
    db,
    {
      accountsFromVisitor24h: sql<number>`(count(*) filter (where ${sameDevice}))::int`,
      accountsByNewerBrowsers24h: sql<number>`(count(*) filter (where ${sameDevice} and ${newer}))::int`,
      // "is not true": an account without a visitor (forgotten) or a mark is still the inbox's.
      accountsForMailboxElsewhere24h: sql<number>`(count(*) filter (where (${sameDevice}) is not true))::int`,
    },
    (select) => sql`select ${select} from accounts a
      where (${sameDevice} or a.mailbox = ${mailbox}) and a.created_at > ${since}`,
  )
  return (
    counts ?? { accountsFromVisitor24h: 0, accountsByNewerBrowsers24h: 0, accountsForMailboxElsewhere24h: 0 }
  )
}
