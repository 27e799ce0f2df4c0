import { SiteIdParam, SiteInput } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { updateSite } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

export const PATCH = consoleHandler(SiteIdParam, async ({ db, request }, { siteId }) => {
  const input = await parseRequest(request, SiteInput)
  await updateSite({ db, siteId, ...input })
  return json({ updated: true })
})
