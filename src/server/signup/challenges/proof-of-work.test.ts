import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../../tests/support/test-database'
import type { DatabaseHandle } from '../../db/client'
import { newChallenge, verifyChallenge } from './proof-of-work'

let handle: DatabaseHandle
beforeAll(async () => {
  handle = await openTestDatabase('pglite', '')
})
afterAll(() => handle.close())

async function solved(difficulty: number, tamper?: (difficulty: number) => number) {
  const challenge = await newChallenge(handle.db, difficulty)
  const solution = await solveChallenge({ challenge, deriveKey })
  if (tamper) challenge.parameters.data = { difficulty: tamper(difficulty) }
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

describe('proof-of-work difficulty', () => {
  it('accepts a solution as large as asked for, once', async () => {
    const payload = await solved(4000)
    expect(await verifyChallenge(handle.db, payload, 4000)).toBe(true)
    expect(await verifyChallenge(handle.db, payload, 4000)).toBe(false)
  })

  it('refuses a smaller puzzle than asked for, and a difficulty raised after signing', async () => {
    expect(await verifyChallenge(handle.db, await solved(2000), 4000)).toBe(false)
    expect(await verifyChallenge(handle.db, await solved(2000, () => 400_000), 4000)).toBe(false)
  })
})
