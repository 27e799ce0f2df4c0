import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import type { HttpError } from '../http/errors'
import {
  ageBrowser,
  decide,
  httpFailure,
  identifyDevice,
  setPolicy,
  signupFields,
  solvedChallenge,
} from './test-signup'

describeOnEachEngine('the accounts-per-device rule and copied fingerprints', (database) => {
  it('never denies the owner’s older browser for accounts a replay of its fingerprint created', async () => {
    const { db } = database
    await setPolicy(db, { visitorAttemptsRule: 'off', ipAttemptsRule: 'off', suspectScoreRule: 'off' })
    const home = '198.51.100.90'
    // The victim's browser has held its token for two days.
    const victim = await identifyDevice(db, { seed: 900, ip: home })
    await ageBrowser(db, victim.requestId, 48)

    // An attacker replays the victim's components from three fresh browsers and signs up thrice.
    for (let replay = 0; replay < 3; replay++) {
      const ip = `203.0.113.${90 + replay}`
      const copy = await identifyDevice(db, { seed: 900, ip })
      expect((await decide(db, { fields: signupFields(), requestId: copy.requestId }, ip)).outcome).toBe(
        'allow',
      )
    }

    // The victim's own browser signs up: challenged at most, and the puzzle lets it through.
    const own = await identifyDevice(db, { seed: 900, ip: home, storedToken: victim.storedToken })
    const answer = await decide(db, { fields: signupFields(), requestId: own.requestId }, home)
    expect(answer.outcome).toBe('challenge')
    const [decision] = await queryRows<{ reasons: { rule: string; outcome: string; message: string }[] }>(
      db,
      sql`select reasons from signup_decisions where request_id = ${own.requestId}`,
    )
    expect(decision?.reasons).toEqual([
      { rule: 'accountLimit', outcome: 'challenge', message: expect.stringMatching(/other browsers/) },
    ])
    const retry = await identifyDevice(db, { seed: 900, ip: home, storedToken: victim.storedToken })
    const solved = await decide(
      db,
      { fields: signupFields(), requestId: retry.requestId, challenge: await solvedChallenge(db) },
      home,
    )
    expect(solved.outcome).toBe('allow')

    // A fourth fresh browser with the same fingerprint is still denied: its token is newer.
    const ip = '203.0.113.99'
    const fourth = await identifyDevice(db, { seed: 900, ip })
    expect((await decide(db, { fields: signupFields(), requestId: fourth.requestId }, ip)).outcome).toBe(
      'deny',
    )
    await setPolicy(db, {})
  })

  it('still denies one browser its own fourth account, however old its token', async () => {
    const { db } = database
    await setPolicy(db, { visitorAttemptsRule: 'off', ipAttemptsRule: 'off', suspectScoreRule: 'off' })
    const ip = '198.51.100.91'
    const first = await identifyDevice(db, { seed: 910, ip })
    await ageBrowser(db, first.requestId, 48)
    for (let account = 0; account < 3; account++) {
      const event = await identifyDevice(db, { seed: 910, ip, storedToken: first.storedToken })
      expect((await decide(db, { fields: signupFields(), requestId: event.requestId }, ip)).outcome).toBe(
        'allow',
      )
    }
    const fourth = await identifyDevice(db, { seed: 910, ip, storedToken: first.storedToken })
    expect((await decide(db, { fields: signupFields(), requestId: fourth.requestId }, ip)).outcome).toBe(
      'deny',
    )
    await setPolicy(db, {})
  })

  it('does not let browsers opened together for a burst excuse each other’s accounts', async () => {
    const { db } = database
    await setPolicy(db, { visitorAttemptsRule: 'off', ipAttemptsRule: 'off', suspectScoreRule: 'off' })
    // Six fresh browsers (private windows) checked first, then used to sign up one after another.
    const ip = '198.51.100.92'
    const windows = []
    for (let window = 0; window < 6; window++) windows.push(await identifyDevice(db, { seed: 920, ip }))
    const outcomes = []
    for (const window of windows) {
      outcomes.push((await decide(db, { fields: signupFields(), requestId: window.requestId }, ip)).outcome)
    }
    expect(outcomes).toEqual(['allow', 'allow', 'allow', 'deny', 'deny', 'deny'])
    await setPolicy(db, {})
  })

  it('leaves the owner’s browser its sign-up budget when replays of its fingerprint spend theirs', async () => {
    const { db } = database
    await setPolicy(db, {
      visitorAttemptsRule: 'off',
      ipAttemptsRule: 'off',
      suspectScoreRule: 'off',
      accountLimitRule: 'off',
    })
    const home = '198.51.100.93'
    // The victim's browser has held its token for a day.
    const victim = await identifyDevice(db, { seed: 930, ip: home })
    await ageBrowser(db, victim.requestId, 24)
    // Replays of the victim's components from fresh browsers spend the visitor's budget, and then
    // are refused: a fresh browser (a cleared cookie) buys no budget of its own.
    const refused = []
    for (let replay = 0; replay < 22; replay++) {
      const ip = `203.0.114.${replay + 1}`
      const copy = await identifyDevice(db, { seed: 930, ip })
      expect(copy.visitorId).toBe(victim.visitorId)
      const attempt = decide(db, { fields: signupFields(), requestId: copy.requestId }, ip)
      refused.push(
        await attempt.then(
          () => false,
          (error: HttpError) => error.code === 'rate_limited',
        ),
      )
    }
    expect(refused).toEqual([...Array(20).fill(false), true, true])
    // The victim's own browser, which held its token before, still has its whole budget.
    const own = await identifyDevice(db, { seed: 930, ip: home, storedToken: victim.storedToken })
    expect((await decide(db, { fields: signupFields(), requestId: own.requestId }, home)).outcome).toBe(
      'allow',
    )
    // One browser is still held to the budget: 20 attempts, this was its first.
    for (let attempt = 0; attempt < 19; attempt++) {
      const event = await identifyDevice(db, { seed: 930, ip: home, storedToken: victim.storedToken })
      await decide(db, { fields: signupFields(), requestId: event.requestId }, home)
    }
    const last = await identifyDevice(db, { seed: 930, ip: home, storedToken: victim.storedToken })
    const limited = await httpFailure(decide(db, { fields: signupFields(), requestId: last.requestId }, home))
    expect(limited.code).toBe('rate_limited')
    await setPolicy(db, {})
  })
})
