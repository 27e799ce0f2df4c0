import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { decide, identifyDevice, setPolicy, signupFields } from './test-signup'

describeOnEachEngine('sign-ups racing for one device', (database) => {
  it('allows exactly the limit when 8 sign-ups from one device arrive at once (limit 3)', async () => {
    const { db } = database
    // Only the account limit decides: the attempt rules would challenge a burst of eight.
    await setPolicy(db, { maxAccountsPerVisitor: 3, visitorAttemptsRule: 'off', ipAttemptsRule: 'off' })
    const ip = '198.51.100.80'
    // Eight tabs of one browser, each with its own device check.
    const first = await identifyDevice(db, { seed: 800, ip })
    const events = [first]
    for (let tab = 1; tab < 8; tab++) {
      events.push(await identifyDevice(db, { seed: 800, ip, storedToken: first.storedToken }))
    }
    expect(new Set(events.map((event) => event.visitorId)).size).toBe(1)

    const answers = await Promise.all(
      events.map((event) => decide(db, { fields: signupFields(), requestId: event.requestId }, ip)),
    )
    const outcomes = answers.map((answer) => answer.outcome).sort()
    expect(outcomes).toEqual(['allow', 'allow', 'allow', 'deny', 'deny', 'deny', 'deny', 'deny'])
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from accounts where visitor_id = ${first.visitorId}`,
    )
    expect(row?.n).toBe(3)
    await setPolicy(db, {})
  })

  it('allows exactly the limit when the racing sign-ups come from one device on many networks', async () => {
    const { db } = database
    await setPolicy(db, { maxAccountsPerVisitor: 3, visitorAttemptsRule: 'off', ipAttemptsRule: 'off' })
    const first = await identifyDevice(db, { seed: 810, ip: '10.8.1.0' })
    const events = [first]
    for (let tab = 1; tab < 8; tab++) {
      events.push(
        await identifyDevice(db, { seed: 810, ip: `10.8.1.${tab}`, storedToken: first.storedToken }),
      )
    }
    const answers = await Promise.all(
      events.map((event, tab) =>
        decide(db, { fields: signupFields(), requestId: event.requestId }, `10.8.1.${tab}`),
      ),
    )
    expect(answers.filter((answer) => answer.outcome === 'allow')).toHaveLength(3)
    await setPolicy(db, {})
  })
})
