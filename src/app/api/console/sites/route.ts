import { SiteInput } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { listSites } from '@/server/console/manage-sites'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { createSite } from '@/server/sites/create-site'

export const dynamic = 'force-dynamic'

export const GET = consoleHandler(async ({ db }) => json({ sites: await listSites({ db }) }))

export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, SiteInput)
  return json(await createSite({ db, ...input }), { status: 201 })
})
