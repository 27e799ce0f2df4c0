import { getDb } from '@/server/db/client'
import { HttpError } from '@/server/http/errors'
import { handle, otherMethods } from '@/server/http/respond'
import { currentBrowser } from '@/server/identification/current-visitor'
import { exportVisitorData } from '@/server/identification/export-visitor-data'

export const dynamic = 'force-dynamic'

/** "Export my data": everything stored about the calling browser, as a JSON download. */
export const GET = handle(async (request: Request) => {
  const db = await getDb()
  const browser = await currentBrowser(db, request)
  const data = browser ? await exportVisitorData({ db, ...browser }) : undefined
  if (!data) throw new HttpError('not_found', 'Nothing is stored about this browser.')
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="tessera-my-data.json"',
      'Cache-Control': 'no-store',
    },
  })
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
