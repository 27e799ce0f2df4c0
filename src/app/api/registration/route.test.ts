import { sql } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Database, queryRows } from '@/server/db/client'
import { identifyDevice, setPolicy, signupFields } from '@/server/signup/test-signup'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../tests/support/process-database'
import { POST as register } from './route'

let db: Database
let seed = 1200

beforeEach(async () => {
  db = await freshProcessDatabase()
  await setPolicy(db, { visitorAttemptsRule: 'off', ipAttemptsRule: 'off', botRule: 'off' })
})
afterAll(closeProcessDatabase)

/** One sign-up through the route, from a device of its own; its status, body and duration. */
async function signUp(email: string) {
  const ip = `198.51.100.${seed % 250}`
  const event = await identifyDevice(db, { seed: seed++, ip })
  const started = performance.now()
  const response = await register(
    new Request('http://127.0.0.1:3000/api/registration', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({
        fields: { ...signupFields(email), name: 'Ada Lovelace' },
        requestId: event.requestId,
      }),
    }),
  )
  const body = await response.text()
  return { status: response.status, body, ms: performance.now() - started, requestId: event.requestId }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

describe('signing up with an address that already has an account', () => {
  it('answers exactly as for a new address, creates nothing, and records why', async () => {
    const taken = 'taken@example.com'
    const first = await signUp(taken)
    expect(first.status).toBe(200)

    const again = await signUp('Taken@Example.com')
    const fresh = await signUp('fresh@example.com')
    expect({ status: again.status, body: again.body }).toEqual({ status: fresh.status, body: fresh.body })

    const [accounts] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from accounts where email_normalised = ${taken}`,
    )
    expect(accounts?.n).toBe(1)
    // The operator sees the truth: no account, and the reason.
    const [decision] = await queryRows<{
      outcome: string
      account_id: string | null
      reasons: { rule: string }[]
    }>(
      db,
      sql`select outcome, account_id, reasons from signup_decisions where request_id = ${again.requestId}`,
    )
    expect(decision).toMatchObject({ outcome: 'deny', account_id: null })
    expect(decision?.reasons.map((reason) => reason.rule)).toEqual(['existingAccount'])
  })

  it('takes as long as a new address: the password is hashed either way', async () => {
    await signUp('timed@example.com')
    const existing: number[] = []
    const fresh: number[] = []
    for (let round = 0; round < 7; round++) {
      existing.push((await signUp('timed@example.com')).ms)
      fresh.push((await signUp(`timed-${round}@example.com`)).ms)
    }
    // Argon2 (tens of milliseconds) dominates both; skipping it would halve the time or less.
    const ratio = median(existing) / median(fresh)
    expect(ratio).toBeGreaterThan(0.75)
    expect(ratio).toBeLessThan(1.33)
  })
})

describe('the attempts an address may make', () => {
  /** A well-formed sign-up naming no identification: refused with a 400, after the address's budget is spent. */
  const attempt = (ip: string) =>
    register(
      new Request('http://127.0.0.1:3000/api/registration', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ fields: signupFields('rotating@example.com'), requestId: 'made-up' }),
      }),
    )

  it('counts an IPv6 address with the rest of its /64: rotating through it buys no more attempts', async () => {
    for (let host = 1; host <= 30; host++) expect((await attempt(`2001:db8:5:1::${host}`)).status).toBe(400)
    const refused = await attempt('2001:db8:5:1:ffff::31')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // The next /64 is another subscriber's.
    expect((await attempt('2001:db8:5:2::1')).status).toBe(400)
  })
})
