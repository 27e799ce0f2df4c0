import { consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { exportRecords } from '@/server/console/export-records'
import { parseParams, queryOf } from '@/server/http/parse-query'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/export']

/** Events (the console's filter), sign-up decisions or one visitor's events, as a CSV or JSON download, streamed. */
export const GET = consoleHandler(async ({ db, request }) => {
  const query = parseParams(queryOf(request), endpoint.query)
  const day = new Date().toISOString().slice(0, 10)
  const name = query.kind === 'visitor' ? `tessera-visitor-${query.visitorId}` : `tessera-${query.kind}`
  return new Response(exportRecords(db, query), {
    headers: {
      'Content-Type': query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name.replace(/[^\w-]/g, '_')}-${day}.${query.format}"`,
      'Cache-Control': 'no-store',
    },
  })
})
