import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { StoredSignals } from '@/contracts/signals'
import type { SignupRequest } from '@/contracts/signup'
import { changeEventSignals } from '../../../tests/support/event-signals'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { type Engine, openTestDatabase } from '../../../tests/support/test-database'
import { findVisitorId } from '../console/look-up-visitor'
import { type DatabaseHandle, queryRows } from '../db/client'
import { FOR_REVIEW } from '../db/schema'
import { forgetVisitor } from '../identification/forget-visitor'
import { identifyVisitor } from '../identification/identify-visitor'
import { writeSetting } from '../settings/write-setting'
import { newChallenge } from './challenges/proof-of-work'
import { decideSignup } from './decide-signup'
import { POLICY_SETTING } from './policy/read-policy'
import { httpFailure } from './test-signup'

const postgresUrl = inject('postgresUrl')
const engines: Engine[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']
const IP = '198.51.100.20'
let counter = 0

function fields(email = `person${++counter}@example.com`) {
  return { name: 'Grace Hopper', email, password: 'cobalt-meridian-lantern-77', terms: true }
}

describe.each(engines)('decideSignup on %s', (engine) => {
  let handle: DatabaseHandle

  async function identify(seed: number, signals: StoredSignals = {}, ip = IP) {
    const event = await identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(seed) },
      context: { ip, userAgent: 'test' },
    })
    if (Object.keys(signals).length > 0) {
      await changeEventSignals(handle.db, event.requestId, () => signals)
    }
    return event
  }

  async function decide(input: SignupRequest, ip = IP) {
    return decideSignup({ db: handle.db, input, context: { ip } })
  }

  beforeAll(async () => {
    handle = await openTestDatabase(engine, postgresUrl)
  })
  afterAll(() => handle.close())

  it('creates the account when the policy allows, and stores the decision', async () => {
    const event = await identify(1)
    const answer = await decide({ fields: fields('Grace@Example.COM'), requestId: event.requestId })
    expect(answer).toEqual({ outcome: 'allow', name: 'Grace Hopper' })
    const [account] = await queryRows<{ email: string; visitor_id: string; password_hash: string }>(
      handle.db,
      sql`select email, visitor_id, password_hash from accounts where email = 'grace@example.com'`,
    )
    expect(account?.visitor_id).toBe(event.visitorId)
    expect(account?.password_hash).toMatch(/^\$argon2id\$/)
    const [decision] = await queryRows<{ outcome: string }>(
      handle.db,
      sql`select outcome from signup_decisions where request_id = ${event.requestId}`,
    )
    expect(decision?.outcome).toBe('allow')
    // The console finds the visitor by the account's email, in any case.
    expect(await findVisitorId({ db: handle.db, query: 'grace@EXAMPLE.com' })).toBe(event.visitorId)
  })

  it('refuses a replayed, unknown, stale or IP-mismatched request', async () => {
    const event = await identify(2)
    await decide({ fields: fields(), requestId: event.requestId })
    expect((await httpFailure(decide({ fields: fields(), requestId: event.requestId }))).code).toBe(
      'request_reused',
    )
    expect((await httpFailure(decide({ fields: fields(), requestId: 'made-up' }))).message).toMatch(/unknown/)
    const other = await identify(3)
    expect(
      (await httpFailure(decide({ fields: fields(), requestId: other.requestId }, '203.0.113.99'))).message,
    ).toMatch(/another network/)
    await handle.db.execute(
      sql`update events set created_at = now() - interval '6 minutes' where request_id = ${other.requestId}`,
    )
    expect((await httpFailure(decide({ fields: fields(), requestId: other.requestId }))).code).toBe(
      'request_expired',
    )
  })

  it('answers field errors for bad fields and creates nothing', async () => {
    const event = await identify(4)
    const error = await httpFailure(
      decide({
        fields: { name: '', email: 'nope', password: 'password', terms: false },
        requestId: event.requestId,
      }),
    )
    expect(error.status).toBe(400)
    expect(error.details).toEqual({
      fields: {
        name: expect.any(String),
        email: expect.any(String),
        password: expect.any(String),
        terms: expect.any(String),
      },
    })
    const [row] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from signup_decisions where request_id = ${event.requestId}`,
    )
    expect(row?.n).toBe(0)
  })

  it('denies a bad bot and the same visitor over the account limit', async () => {
    const bot = await identify(5, { bot: { result: 'bad', reasons: ['Headless Chromium.'] } })
    expect((await decide({ fields: fields(), requestId: bot.requestId })).outcome).toBe('deny')

    for (let account = 0; account < 3; account++) {
      const event = await identify(6)
      expect((await decide({ fields: fields(), requestId: event.requestId })).outcome).toBe('allow')
    }
    const fourth = await identify(6)
    const answer = await decide({ fields: fields(), requestId: fourth.requestId })
    expect(answer.outcome).toBe('deny')
    if (answer.outcome === 'deny') expect(answer.message).not.toMatch(/bot|score|limit|tamper/i)
    const [decision] = await queryRows<{ reasons: { rule: string }[] }>(
      handle.db,
      sql`select reasons from signup_decisions where request_id = ${fourth.requestId}`,
    )
    expect(decision?.reasons.map((reason) => reason.rule)).toEqual(['accountLimit'])
  })

  it("names an inbox's +tag and dotted accounts from other devices, forgotten ones too, and lets them decide nothing", async () => {
    const inbox = `ada.${counter++}.lovelace`
    for (const [index, seed] of [71, 72].entries()) {
      // Other devices on other addresses, each a new visitor.
      const ip = `203.0.113.${30 + index}`
      const event = await identify(seed, {}, ip)
      const email = `${inbox}+shop${index}@gmail.com`
      expect((await decide({ fields: fields(email), requestId: event.requestId }, ip)).outcome).toBe('allow')
      // The second device forgets itself: its account keeps no visitor, and still is the inbox's.
      if (index === 1) await forgetVisitor({ db: handle.db, visitorId: event.visitorId })
    }
    // A device of its own at its limit: denied for its own accounts, the inbox's named.
    const ip = '203.0.113.39'
    for (let account = 0; account < 3; account++) {
      const event = await identify(74, {}, ip)
      expect((await decide({ fields: fields(), requestId: event.requestId }, ip)).outcome).toBe('allow')
    }
    const next = await identify(74, {}, ip)
    const answer = await decide(
      { fields: fields(`${inbox.replaceAll('.', '')}@googlemail.com`), requestId: next.requestId },
      ip,
    )
    expect(answer.outcome).toBe('deny')
    const [decision] = await queryRows<{
      reasons: { rule: string; message: string }[]
      facts: { accountsForMailboxElsewhere24h: number }
    }>(handle.db, sql`select reasons, facts from signup_decisions where request_id = ${next.requestId}`)
    expect(decision?.facts.accountsForMailboxElsewhere24h).toBe(2)
    expect(decision?.reasons).toEqual([
      expect.objectContaining({
        rule: 'accountLimit',
        message: expect.stringMatching(/Other devices created 2 more for this address's inbox/),
      }),
    ])
    // A device with no accounts of its own: the inbox's decide nothing (no answer tells who signed up).
    const fresh = await identify(75, {}, '203.0.113.40')
    expect(
      (
        await decide(
          { fields: fields(`${inbox}+again@gmail.com`), requestId: fresh.requestId },
          '203.0.113.40',
        )
      ).outcome,
    ).toBe('allow')
  })

  it('still counts a forgotten device’s accounts: forget does not reset the account limit', async () => {
    const ip = '198.51.100.60'
    const emails: string[] = []
    let last = await identify(60, {}, ip)
    for (let account = 0; account < 3; account++) {
      last = await identify(60, {}, ip)
      const form = fields()
      emails.push(form.email)
      expect((await decide({ fields: form, requestId: last.requestId }, ip)).outcome).toBe('allow')
    }
    expect(await forgetVisitor({ db: handle.db, visitorId: last.visitorId })).toBe(true)
    // The accounts stay, unlinked from the forgotten visitor; their mark holds neither IP nor email.
    const kept = await queryRows<{ visitor_id: string | null; device_mark: string | null }>(
      handle.db,
      sql`select visitor_id, device_mark from accounts where email in (${sql.join(
        emails.map((email) => sql`${email}`),
        sql`, `,
      )})`,
    )
    expect(kept).toHaveLength(3)
    for (const row of kept) {
      expect(row.visitor_id).toBeNull()
      expect(row.device_mark).toMatch(/^[\w-]{43}$/)
    }

    const again = await identify(60, {}, ip)
    expect(again.visitorId).not.toBe(last.visitorId)
    const answer = await decide({ fields: fields(), requestId: again.requestId }, ip)
    expect(answer.outcome).toBe('deny')
    const [decision] = await queryRows<{ reasons: { rule: string }[] }>(
      handle.db,
      sql`select reasons from signup_decisions where request_id = ${again.requestId}`,
    )
    expect(decision?.reasons.map((reason) => reason.rule)).toEqual(['accountLimit'])
    // Another device is not caught by this device's mark.
    const other = await identify(61, {}, '198.51.100.61')
    expect((await decide({ fields: fields(), requestId: other.requestId }, '198.51.100.61')).outcome).toBe(
      'allow',
    )
  })

  it('challenges tampering; a solved proof of work lets the sign-up through, once', async () => {
    const tampered = await identify(7, {
      tampering: { result: true, reasons: ['navigator.webdriver was redefined.'] },
    })
    const first = await decide({ fields: fields(), requestId: tampered.requestId })
    expect(first.outcome).toBe('challenge')

    const challenge = await newChallenge(handle.db)
    const solution = await solveChallenge({ challenge, deriveKey })
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    const again = await identify(7, { tampering: { result: true, reasons: [] } })
    expect((await decide({ fields: fields(), requestId: again.requestId, challenge: payload })).outcome).toBe(
      'allow',
    )
    // The same solution cannot be spent twice.
    const third = await identify(7, { tampering: { result: true, reasons: [] } })
    expect((await decide({ fields: fields(), requestId: third.requestId, challenge: payload })).outcome).toBe(
      'challenge',
    )
    // A forged solution does not count.
    const forged = Buffer.from(
      JSON.stringify({ challenge, solution: { ...solution, counter: (solution?.counter ?? 0) + 1 } }),
    ).toString('base64')
    const fourth = await identify(7, { tampering: { result: true, reasons: [] } })
    expect((await decide({ fields: fields(), requestId: fourth.requestId, challenge: forged })).outcome).toBe(
      'challenge',
    )
  })

  it('counts a challenge and the attempt that answered it as one sign-up: reviewed once, one attempt', async () => {
    const form = fields()
    const flagged = { tampering: { result: true, reasons: ['navigator.webdriver was redefined.'] } }
    const challenged = await identify(630, flagged)
    expect((await decide({ fields: form, requestId: challenged.requestId })).outcome).toBe('challenge')
    const challenge = await newChallenge(handle.db)
    const solution = await solveChallenge({ challenge, deriveKey })
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    const answered = await identify(630, flagged)
    expect((await decide({ fields: form, requestId: answered.requestId, challenge: payload })).outcome).toBe(
      'allow',
    )

    const rows = await queryRows<{ request_id: string; superseded_by: string | null; queued: boolean }>(
      handle.db,
      sql`select request_id, superseded_by, (${FOR_REVIEW} and review is null) as queued
        from signup_decisions where request_id in (${challenged.requestId}, ${answered.requestId})
        order by created_at`,
    )
    expect(rows).toEqual([
      { request_id: challenged.requestId, superseded_by: answered.requestId, queued: false },
      { request_id: answered.requestId, superseded_by: null, queued: true },
    ])
    // The device's next sign-up sees one attempt before it, not two.
    const next = await identify(630)
    await decide({ fields: fields(), requestId: next.requestId })
    const [facts] = await queryRows<{ attempts: number }>(
      handle.db,
      sql`select (facts->>'attemptsFromVisitor10m')::int as attempts from signup_decisions
        where request_id = ${next.requestId}`,
    )
    expect(facts?.attempts).toBe(1)
    // A solution answers its own sign-up: the same device's challenge for another address stays.
    const other = await identify(631, flagged)
    await decide({ fields: fields(), requestId: other.requestId })
    const challenge2 = await newChallenge(handle.db)
    const solution2 = await solveChallenge({ challenge: challenge2, deriveKey })
    const payload2 = Buffer.from(JSON.stringify({ challenge: challenge2, solution: solution2 })).toString(
      'base64',
    )
    const elsewhere = await identify(631, flagged)
    expect(
      (await decide({ fields: fields(), requestId: elsewhere.requestId, challenge: payload2 })).outcome,
    ).toBe('allow')
    const [left] = await queryRows<{ superseded_by: string | null }>(
      handle.db,
      sql`select superseded_by from signup_decisions where request_id = ${other.requestId}`,
    )
    expect(left?.superseded_by).toBeNull()

    // An answer for an address that already has an account is stored as refused and listed nowhere:
    // the challenge it answered stays in the review queue.
    // (From an address of their own: this file's sign-ups have used up the shared one's attempts.)
    const taken = fields()
    const owner = await identify(632, {}, '198.51.100.32')
    expect((await decide({ fields: taken, requestId: owner.requestId }, '198.51.100.32')).outcome).toBe(
      'allow',
    )
    const probe = await identify(633, flagged, '198.51.100.33')
    expect((await decide({ fields: taken, requestId: probe.requestId }, '198.51.100.33')).outcome).toBe(
      'challenge',
    )
    const challenge3 = await newChallenge(handle.db)
    const solution3 = await solveChallenge({ challenge: challenge3, deriveKey })
    const payload3 = Buffer.from(JSON.stringify({ challenge: challenge3, solution: solution3 })).toString(
      'base64',
    )
    const probed = await identify(633, flagged, '198.51.100.33')
    expect(
      (await decide({ fields: taken, requestId: probed.requestId, challenge: payload3 }, '198.51.100.33'))
        .outcome,
    ).toBe('allow')
    const [kept] = await queryRows<{ superseded_by: string | null; queued: boolean }>(
      handle.db,
      sql`select superseded_by, (${FOR_REVIEW} and review is null) as queued
        from signup_decisions where request_id = ${probe.requestId}`,
    )
    expect(kept).toEqual({ superseded_by: null, queued: true })
  })

  it('never lets a solved challenge turn a deny into an allow', async () => {
    const bot = await identify(8, { bot: { result: 'bad', reasons: [] } })
    const challenge = await newChallenge(handle.db)
    const solution = await solveChallenge({ challenge, deriveKey })
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
    expect((await decide({ fields: fields(), requestId: bot.requestId, challenge: payload })).outcome).toBe(
      'deny',
    )
  })

  it('follows the stored policy (bot rule set to challenge)', async () => {
    await writeSetting({ db: handle.db, key: POLICY_SETTING, value: { botRule: 'challenge' } })
    const bot = await identify(9, { bot: { result: 'bad', reasons: [] } })
    expect((await decide({ fields: fields(), requestId: bot.requestId })).outcome).toBe('challenge')
    await writeSetting({ db: handle.db, key: POLICY_SETTING, value: {} })
  })

  it('counts the attempts of an IPv6 address with the rest of its /64, which one holder rotates through', async () => {
    // Ten sign-ups from ten addresses of one /64, each its own device: the eleventh from that
    // network is challenged, one from the next /64 is not.
    for (let host = 1; host <= 10; host++) {
      const ip = `2001:db8:77:1::${host}`
      const event = await identify(600 + host, {}, ip)
      expect((await decide({ fields: fields(), requestId: event.requestId }, ip)).outcome).toBe('allow')
    }
    const sameNetwork = '2001:db8:77:1:aaaa::99'
    const eleventh = await identify(611, {}, sameNetwork)
    const challenged = await decide({ fields: fields(), requestId: eleventh.requestId }, sameNetwork)
    expect(challenged.outcome).toBe('challenge')
    const [stored] = await queryRows<{ reasons: unknown }>(
      handle.db,
      sql`select reasons from signup_decisions where request_id = ${eleventh.requestId}`,
    )
    expect(JSON.stringify(stored?.reasons)).toMatch(/11 sign-up attempts from this IP address/)
    const nextNetwork = '2001:db8:77:2::1'
    const elsewhere = await identify(612, {}, nextNetwork)
    expect((await decide({ fields: fields(), requestId: elsewhere.requestId }, nextNetwork)).outcome).toBe(
      'allow',
    )
  })

  it('creates exactly one account, and answers all alike, when 20 sign-ups race with one email in three spellings', async () => {
    // Twenty devices on twenty networks, so no attempt limit interferes.
    const events = await Promise.all(
      Array.from({ length: 20 }, (_, index) => identify(100 + index, {}, `10.1.0.${index}`)),
    )
    const email = 'race@example.com'
    // The same address in three spellings: one account.
    const spellings = [email, 'Race@Example.com', ' RACE@EXAMPLE.COM ']
    const results = await Promise.allSettled(
      events.map((event, index) =>
        decide(
          { fields: fields(spellings[index % spellings.length]), requestId: event.requestId },
          `10.1.0.${index}`,
        ),
      ),
    )
    // Every one is answered alike (the answer must not tell whether the address was taken)…
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.outcome : result))).toEqual(
      Array(20).fill('allow'),
    )
    // …and exactly one was recorded as the account's creation.
    const [created] = await queryRows<{ allowed: number; existing: number }>(
      handle.db,
      sql`select count(*) filter (where outcome = 'allow')::int as allowed,
                 count(*) filter (where reasons @> '[{"rule":"existingAccount"}]')::int as existing
          from signup_decisions where email = ${email}`,
    )
    expect(created).toEqual({ allowed: 1, existing: 19 })
    const [row] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from accounts where lower(email) = ${email}`,
    )
    expect(row?.n).toBe(1)
  })
})
