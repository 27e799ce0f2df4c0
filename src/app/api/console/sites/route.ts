import { SiteInput } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { getEnv } from '@/server/env'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { createSite } from '@/server/sites/create-site'
import { listSites } from '@/server/sites/manage-sites'

export const dynamic = 'force-dynamic'

/** Sites with their keys and webhooks; and whether sealing keys are encrypted at rest (TESSERA_ENCRYPTION_KEY). */
export const GET = consoleHandler(async ({ db }) =>
  json({
    sites: await listSites({ db }),
    sealingKeysEncrypted: getEnv().TESSERA_ENCRYPTION_KEY !== undefined,
  }),
)

export const POST = consoleHandler(async ({ db, request }) => {
  const input = await parseRequest(request, SiteInput)
  return json(await createSite({ db, ...input }), { status: 201 })
})
