import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { changePassword } from '@/server/console/change-password'
import { consoleHandler } from '@/server/console/console-handler'
import { sessionTokenOf } from '@/server/console/sessions'
import { clientAddress } from '@/server/http/client-address'
import { parseRequest } from '@/server/http/parse-request'
import { json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/password']

export const POST = consoleHandler(async ({ db, operator, request }) => {
  const input = await parseRequest(request, endpoint.body, { maxBytes: 4096 })
  await changePassword({
    db,
    operatorId: operator.id,
    ...input,
    sessionToken: sessionTokenOf(request),
    ip: clientAddress(request.headers),
  })
  return json({ changed: true } satisfies AnswerOf<typeof endpoint>)
})
