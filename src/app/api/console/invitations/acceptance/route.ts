import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { createSession, sessionCookie } from '@/server/console/sessions'
import { acceptInvitation } from '@/server/console/team'
import { getDb } from '@/server/db/client'
import { parseRequest } from '@/server/http/parse-request'
import { handle, json } from '@/server/http/respond'
import { requireSameOrigin } from '@/server/http/same-origin'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['POST /api/console/invitations/acceptance']

/**
 * The invited person joins with a name and a password, and is signed in. Signed out by nature, so
 * not a consoleHandler; from Tessera's own pages only (another site must not make accounts with a
 * link it learned, nor sign this browser in).
 */
export const POST = handle(async (request: Request) => {
  requireSameOrigin(request)
  const { token, username, password } = await parseRequest(request, endpoint.body, { maxBytes: 4096 })
  const db = await getDb()
  const { operatorId } = await acceptInvitation({ db, token, username, password })
  const session = await createSession({ db, operatorId })
  return json(
    { signedIn: true, expiresAt: session.expiresAt.toISOString() } satisfies AnswerOf<typeof endpoint>,
    {
      status: 201,
      headers: {
        'Set-Cookie': sessionCookie(request, session.token, session.expiresAt),
        'Cache-Control': 'no-store',
      },
    },
  )
})
