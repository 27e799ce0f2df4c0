import { SignupRequest } from '@/contracts/signup'
import { getDb } from '@/server/db/client'
import { clientAddress } from '@/server/http/client-address'
import { parseRequest } from '@/server/http/parse-request'
import { handle, json } from '@/server/http/respond'
import { requireSameOrigin } from '@/server/http/same-origin'
import { addressKey } from '@/server/rate-limit/address-key'
import { consumeRateLimit } from '@/server/rate-limit/rate-limiter'
import { decideSignup } from '@/server/signup/decide-signup'

export const dynamic = 'force-dynamic'

/** Sign-up attempts per client address (an IPv6 one by its /64) in 10 minutes, whatever their outcome. */
const PER_IP = { name: 'signup-ip', points: 30, durationSeconds: 600 }

/** The protected sign-up: allow (account created), challenge (solve the puzzle) or deny. */
export const POST = handle(async (request: Request) => {
  requireSameOrigin(request)
  const input = await parseRequest(request, SignupRequest, { maxBytes: 16 * 1024 })
  const db = await getDb()
  const ip = clientAddress(request.headers)
  await consumeRateLimit({ db, limit: PER_IP, key: addressKey(ip) })
  return json(await decideSignup({ db, input, context: { ip } }), {
    headers: { 'Cache-Control': 'no-store' },
  })
})
