import 'server-only'
import { createChallenge, randomInt } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { create } from 'altcha-lib/frameworks/nextjs'
import { z } from 'zod'
import type { Database } from '../../db/client'
import { usedChallenges } from '../../db/schema'
import { getEnv } from '../../env'
import { getServerSecret } from '../../settings/server-secret'

const ALGORITHM = 'SHA-256'
const VALID_FOR_SECONDS = 10 * 60

async function hmacKey(db: Database): Promise<string> {
  return getEnv().TESSERA_CHALLENGE_HMAC_KEY ?? getServerSecret(db, 'challenge_hmac_key')
}

/**
 * A new signed ALTCHA challenge. Its work is `difficulty` (TESSERA_CHALLENGE_DIFFICULTY unless a
 * throttle asks for more) key derivations at most, three quarters of it on average; the
 * difficulty is part of the signed parameters, so a solution shows how much work it took.
 */
export async function newChallenge(db: Database, difficulty = getEnv().TESSERA_CHALLENGE_DIFFICULTY) {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: 1,
    counter: randomInt(Math.floor(difficulty / 2), difficulty),
    data: { difficulty },
    deriveKey,
    hmacSignatureSecret: await hmacKey(db),
    expiresAt: new Date(Date.now() + VALID_FOR_SECONDS * 1000),
  })
}

/**
 * Whether the widget's payload solves a challenge we issued, of at least `minDifficulty` (the
 * configured one by default), and was not used before. A valid solution is spent even when its
 * difficulty falls short: it was presented once.
 */
export async function verifyChallenge(
  db: Database,
  payload: string,
  minDifficulty = getEnv().TESSERA_CHALLENGE_DIFFICULTY,
): Promise<boolean> {
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
  return result.error === null && solvedDifficulty(payload) >= minDifficulty
}

/**
 * The difficulty a verified payload's signed parameters carry; a challenge issued before they
 * carried one was of the configured difficulty.
 */
function solvedDifficulty(payload: string): number {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))
    const stated = SolvedPayload.safeParse(decoded)
    if (stated.success)
      return stated.data.challenge.parameters.data?.difficulty ?? getEnv().TESSERA_CHALLENGE_DIFFICULTY
  } catch {
    // Not JSON: verify() has already refused it.
  }
  return 0
}

const SolvedPayload = z.object({
  challenge: z.object({
    parameters: z.object({ data: z.object({ difficulty: z.number().optional() }).optional() }),
  }),
})
