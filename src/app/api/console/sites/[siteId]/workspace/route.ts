import { SiteIdParam, SiteWorkspaceInput } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { setSiteWorkspace } from '@/server/sites/set-site-workspace'

export const dynamic = 'force-dynamic'

export const PUT = consoleHandler(SiteIdParam, async ({ db, request, operator }, { siteId }) => {
  const { shareWith } = await parseRequest(request, SiteWorkspaceInput)
  await setSiteWorkspace({ db, siteId, shareWith, operator: operator.username })
  return json({ updated: true })
})
