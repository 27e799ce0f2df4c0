import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { consoleHandler } from '@/server/console/console-handler'
import { clearedSessionCookie, endSession, sessionCookie, sessionTokenOf } from '@/server/console/sessions'
import { signIn } from '@/server/console/sign-in'
import { getDb } from '@/server/db/client'
import { clientAddress } from '@/server/http/client-address'
import { parseRequest } from '@/server/http/parse-request'
import { handle, json } from '@/server/http/respond'
import { requireSameOrigin } from '@/server/http/same-origin'

export const dynamic = 'force-dynamic'

const signInEndpoint = consoleEndpoints['POST /api/console/session']
const operatorEndpoint = consoleEndpoints['GET /api/console/session']

/** Sign in: a session cookie (HttpOnly, SameSite=Strict) for the console. */
export const POST = handle(async (request: Request) => {
  // Also against login CSRF: another site must not sign this browser in to a session of its choosing.
  requireSameOrigin(request)
  const input = await parseRequest(request, signInEndpoint.body, { maxBytes: 4096 })
  const db = await getDb()
  const session = await signIn({ db, ...input, ip: clientAddress(request.headers) })
  return json(
    { signedIn: true, expiresAt: session.expiresAt.toISOString() } satisfies AnswerOf<typeof signInEndpoint>,
    {
      headers: {
        'Set-Cookie': sessionCookie(request, session.token, session.expiresAt),
        'Cache-Control': 'no-store',
      },
    },
  )
})

/** Who is signed in. */
export const GET = consoleHandler(async ({ operator }) =>
  json({ username: operator.username, role: operator.role } satisfies AnswerOf<typeof operatorEndpoint>),
)

/** Sign out. */
export const DELETE = handle(async (request: Request) => {
  requireSameOrigin(request)
  await endSession({ db: await getDb(), token: sessionTokenOf(request) })
  return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(request) } })
})
