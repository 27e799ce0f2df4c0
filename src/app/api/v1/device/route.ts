import type { ForgottenDevice } from '@/contracts/device'
import { getDb } from '@/server/db/client'
import { HttpError } from '@/server/http/errors'
import { handle, json, otherMethods } from '@/server/http/respond'
import { requireOwnNavigation, requireSameOrigin } from '@/server/http/same-origin'
import { currentBrowser } from '@/server/identification/current-visitor'
import { forgetBrowser } from '@/server/identification/forget-visitor'
import { readDeviceReport } from '@/server/identification/read-device-report'
import { clearedVisitorCookie } from '@/server/identification/visitor-cookie'

export const dynamic = 'force-dynamic'

/** The calling browser's own report: visits and how identifying each signal is. */
export const GET = handle(async (request: Request) => {
  // Asked by /device-fingerprint itself; another site's page gets nothing by making the browser ask.
  requireOwnNavigation(request)
  const db = await getDb()
  const browser = await currentBrowser(db, request)
  const report = browser ? await readDeviceReport({ db, ...browser }) : undefined
  if (!report) throw new HttpError('not_found', 'This browser has not been identified yet.')
  return json(report, { headers: { 'Cache-Control': 'no-store' } })
})

/** "Forget this device": deletes what the calling browser produced (see forgetBrowser) and says what went. */
export const DELETE = handle(async (request: Request) => {
  requireSameOrigin(request)
  const db = await getDb()
  const browser = await currentBrowser(db, request)
  const forgotten: ForgottenDevice = browser
    ? await forgetBrowser({ db, browserId: browser.browserId })
    : { deletedVisits: 0, visitorDeleted: false }
  return json(forgotten, {
    headers: { 'Set-Cookie': clearedVisitorCookie(request), 'Cache-Control': 'no-store' },
  })
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, OPTIONS } = otherMethods('GET', 'DELETE')
