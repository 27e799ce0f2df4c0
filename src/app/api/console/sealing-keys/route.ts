import { CreateSealingKeyRequest } from '@/contracts/console'
import { consoleHandler } from '@/server/console/console-handler'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'
import { createSealingKey } from '@/server/sealing/create-sealing-key'

export const dynamic = 'force-dynamic'

/** Creates a sealing key for a site; the answer is the only time the key is ever shown. */
export const POST = consoleHandler(async ({ db, operator, request }) => {
  const { siteId } = await parseRequest(request, CreateSealingKeyRequest)
  return json(await createSealingKey({ db, siteId, operator: operator.username }), { status: 201 })
})
