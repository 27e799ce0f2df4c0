import { SiteBlocklistInput, SiteIdParam } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { setSiteBlocklist } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

export const PUT = consoleHandler(SiteIdParam, async ({ db, request }, { siteId }) => {
  const { blockedNetworks } = await parseRequest(request, SiteBlocklistInput)
  await setSiteBlocklist({ db, siteId, blockedNetworks })
  return json({ updated: true })
})
