import 'server-only'
import { createChallenge, randomInt } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { create } from 'altcha-lib/frameworks/nextjs'
import type { Database } from '../db/client'
import { usedChallenges } from '../db/schema'
import { getEnv } from '../env'
import { getServerSecret } from '../settings/server-secret'

const ALGORITHM = 'SHA-256'
const VALID_FOR_SECONDS = 10 * 60

async function hmacKey(db: Database): Promise<string> {
  return getEnv().TESSERA_CHALLENGE_HMAC_KEY ?? getServerSecret(db, 'challenge_hmac_key')
}

/** A new signed ALTCHA challenge; its difficulty comes from TESSERA_CHALLENGE_DIFFICULTY. */
export async function newChallenge(db: Database) {
  const difficulty = getEnv().TESSERA_CHALLENGE_DIFFICULTY
  return createChallenge({
    algorithm: ALGORITHM,
    cost: 1,
    counter: randomInt(Math.floor(difficulty / 2), difficulty),
    deriveKey,
    hmacSignatureSecret: await hmacKey(db),
    expiresAt: new Date(Date.now() + VALID_FOR_SECONDS * 1000),
  })
}

/** Whether the widget's payload solves a challenge we issued, and was not used before. */
export async function verifyChallenge(db: Database, payload: string): Promise<boolean> {
  const secret = await hmacKey(db)
  // Each solved challenge is accepted once, on every app server.
  const usedOnce = {
    get: () => undefined,
    set: () => undefined,
    setIfAbsent: async (id: string) =>
      (await db.insert(usedChallenges).values({ id }).onConflictDoNothing().returning()).length > 0,
  }
  const { verify } = create({ deriveKey, hmacSignatureSecret: secret })
  const result = await verify(payload, deriveKey, secret, undefined, usedOnce)
  return result.error === null
}
