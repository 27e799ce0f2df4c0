import { getDb } from '@/server/db/client'
import { clientAddress } from '@/server/http/client-address'
import { HttpError } from '@/server/http/errors'
import { handle, otherMethods } from '@/server/http/respond'
import { requireOwnNavigation } from '@/server/http/same-origin'
import { currentBrowser } from '@/server/identification/current-visitor'
import { exportVisitorData } from '@/server/identification/export-visitor-data'
import { addressKey } from '@/server/rate-limit/address-key'
import { consumeRateLimit, secondsUntilAll } from '@/server/rate-limit/rate-limiter'

export const dynamic = 'force-dynamic'

/**
 * Exports per browser, and per client address (an IPv6 one by its /64), in 10 minutes: a visitor
 * downloads their data once or twice; each export reads every event the browser produced.
 */
const PER_BROWSER = { name: 'device-export-browser', points: 3, durationSeconds: 600 }
const PER_ADDRESS = { name: 'device-export-ip', points: 10, durationSeconds: 600 }

/** "Export my data": everything stored about the calling browser, as a JSON download (streamed). */
export const GET = handle(async (request: Request) => {
  // Before any budget: another site's page (or another port's) must not spend the visitor's exports.
  requireOwnNavigation(
    request,
    'Export your data from Tessera’s own page (/device-fingerprint), not from a link on another site.',
  )
  const db = await getDb()
  const browser = await currentBrowser(db, request)
  if (!browser) throw new HttpError('not_found', 'Nothing is stored about this browser.')
  // Both checked before either is spent: a browser refused its own exports must not spend what the
  // others on its address (an office, a carrier's address) share.
  const budgets = [
    { limit: PER_BROWSER, key: browser.browserId },
    { limit: PER_ADDRESS, key: addressKey(clientAddress(request.headers)) },
  ]
  const wait = await secondsUntilAll(db, budgets)
  if (wait > 0)
    throw new HttpError('rate_limited', `Too many exports; try again in ${wait} s.`, { retryAfter: wait })
  for (const budget of budgets) await consumeRateLimit({ db, ...budget })
  const data = await exportVisitorData({ db, ...browser })
  if (!data) throw new HttpError('not_found', 'Nothing is stored about this browser.')
  return new Response(data, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="tessera-my-data.json"',
      'Cache-Control': 'no-store',
    },
  })
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
