import { getDb } from '@/server/db/client'
import { handle, json } from '@/server/http/respond'
import { newChallenge } from '@/server/signup/challenges/proof-of-work'

export const dynamic = 'force-dynamic'

/** A fresh proof-of-work challenge for the ALTCHA widget. */
export const GET = handle(async () =>
  json(await newChallenge(await getDb()), { headers: { 'Cache-Control': 'no-store' } }),
)
