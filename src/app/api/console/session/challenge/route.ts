import { PasswordChallengeQuery } from '@/contracts/console'
import { passwordCheckDifficulty } from '@/server/console/sign-in-throttle'
import { getDb } from '@/server/db/client'
import { clientAddress } from '@/server/http/client-address'
import { parseParams, queryOf } from '@/server/http/parse-query'
import { handle, json } from '@/server/http/respond'
import { newChallenge } from '@/server/signup/proof-of-work'

export const dynamic = 'force-dynamic'

/**
 * A proof-of-work challenge for the next password attempt at `username` from this address (sign-in
 * or the current password of a change), of the size its failures so far ask for; the configured
 * size when none is needed yet.
 */
export const GET = handle(async (request: Request) => {
  const { username } = parseParams(queryOf(request), PasswordChallengeQuery)
  const db = await getDb()
  const difficulty = await passwordCheckDifficulty({ db, username, ip: clientAddress(request.headers) })
  return json(await newChallenge(db, difficulty || undefined), { headers: { 'Cache-Control': 'no-store' } })
})
