import { type AnswerOf, consoleEndpoints } from '@/contracts/console-endpoints'
import { passwordCheckDifficulty } from '@/server/console/sign-in-throttle'
import { getDb } from '@/server/db/client'
import { clientAddress } from '@/server/http/client-address'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { handle, json } from '@/server/http/respond'
import { newChallenge } from '@/server/signup/challenges/proof-of-work'

export const dynamic = 'force-dynamic'

const endpoint = consoleEndpoints['GET /api/console/session/challenge']

/**
 * A proof-of-work challenge for the next password attempt at `username` from this address (sign-in
 * or the current password of a change), of the size its failures so far ask for; the configured
 * size when none is needed yet.
 */
export const GET = handle(async (request: Request) => {
  const { username } = parseParams(queryOf(request), endpoint.query)
  const db = await getDb()
  const difficulty = await passwordCheckDifficulty({ db, username, ip: clientAddress(request.headers) })
  const challenge = await newChallenge(db, difficulty || undefined)
  return json(challenge satisfies AnswerOf<typeof endpoint>, { headers: { 'Cache-Control': 'no-store' } })
})
