import 'server-only'
import { type FingerprintSearchQuery, UNSUPPORTED_SEARCH_FILTERS } from '@/contracts/fingerprint-v4'
import type { EventFilter } from '../api/search-events'
import { HttpError } from '../http/errors'

const BOT_FILTER = {
  all: ['good', 'bad'],
  good: ['good'],
  bad: ['bad'],
  none: ['notDetected'],
} as const

/** v4 searches the last 7 days unless told otherwise. */
export const DEFAULT_SEARCH_DAYS = 7

/** v4's search parameters as the Server API's own filter. */
export function toEventFilter(query: FingerprintSearchQuery, now = new Date()): EventFilter {
  return {
    visitorId: query.visitor_id,
    linkedId: query.linked_id,
    url: query.url,
    ...query.ip_address,
    bot: query.bot ? BOT_FILTER[query.bot] : undefined,
    since: query.start ?? new Date(now.getTime() - DEFAULT_SEARCH_DAYS * 86_400_000).toISOString(),
    // v4's `end` includes its own instant; its default, now, is no filter at all.
    through: query.end,
    suspect: query.suspect,
    minSuspectScore: query.min_suspect_score,
    signals: {
      privateMode: query.incognito,
      privacyBrowser: query.privacy_settings,
      tampering: query.tampering,
      virtualMachine: query.virtual_machine,
      vpn: query.vpn,
      proxy: query.proxy,
      tor: query.tor_node,
    },
    vpnConfidence: query.vpn_confidence,
    asn: query.asn === undefined ? undefined : Number(query.asn),
    limit: query.limit,
    cursor: query.pagination_key,
    oldestFirst: query.reverse,
  }
}

/** A v4 filter for a signal Tessera does not compute is refused by name, never silently ignored. */
export function assertSupportedFilters(request: Request) {
  const unsupported: readonly string[] = UNSUPPORTED_SEARCH_FILTERS
  for (const name of new URL(request.url).searchParams.keys()) {
    if (unsupported.includes(name))
      throw new HttpError(
        'invalid_request',
        `${name}: Tessera does not compute this signal; leave this filter out (see docs/migrating-from-fingerprint.md).`,
      )
  }
}
