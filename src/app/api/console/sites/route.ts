import { SiteInput } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { createSite } from '@/server/sites/create-site'
import { listSites } from '@/server/sites/list-sites'

export const dynamic = 'force-dynamic'

/** Sites with their keys and webhooks; and whether sealing keys are encrypted at rest (TESSERA_ENCRYPTION_KEY). */
export const GET = consoleHandler(async ({ db }) => json(await listSites({ db })))

export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, SiteInput)
  return json(await createSite({ db, ...input }), { status: 201 })
})
