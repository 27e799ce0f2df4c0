import { getDb } from '@/server/db/client'
import { HttpError } from '@/server/http/errors'
import { handle, json } from '@/server/http/respond'
import { currentVisitorId } from '@/server/identification/current-visitor'
import { forgetVisitor } from '@/server/identification/forget-visitor'
import { readDeviceReport } from '@/server/identification/read-device-report'
import { clearedVisitorCookie } from '@/server/identification/visitor-cookie'

export const dynamic = 'force-dynamic'

/** The calling browser's own report: visits and how identifying each signal is. */
export const GET = handle(async (request: Request) => {
  const db = await getDb()
  const visitorId = await currentVisitorId(db, request)
  const report = visitorId ? await readDeviceReport({ db, visitorId }) : undefined
  if (!report) throw new HttpError('not_found', 'This browser has not been identified yet.')
  return json(report, { headers: { 'Cache-Control': 'no-store' } })
})

/** "Forget this device": deletes every stored trace of the calling browser's visitor. */
export const DELETE = handle(async (request: Request) => {
  const db = await getDb()
  const visitorId = await currentVisitorId(db, request)
  if (visitorId) await forgetVisitor({ db, visitorId })
  return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedVisitorCookie(request) } })
})
