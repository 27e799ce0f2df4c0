import { SiteInput } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { updateSite } from '@/server/console/manage-sites'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const PATCH = consoleHandler<{ siteId: string }>(async ({ db, request }, { siteId }) => {
  const input = await parseRequest(request, SiteInput)
  await updateSite({ db, siteId, ...input })
  return json({ updated: true })
})
