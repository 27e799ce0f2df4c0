import { sql } from 'drizzle-orm'
import { Client } from 'pg'
import { expect, it } from 'vitest'
import { seedPersonalData, tablesContaining } from '../../../tests/support/personal-data'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { ageBrowser, decide, identifyDevice, signupFields } from '../signup/test-signup'
import { forgetBrowser, forgetVisitor } from './forget-visitor'

describeOnEachEngine('forgetVisitor', (handle) => {
  it("leaves none of the visitor's personal data in any table, and only that visitor's", async () => {
    const person = await seedPersonalData(handle.db, 80)
    const bystander = await seedPersonalData(handle.db, 81)
    const needles = [person.visitorId, ...person.requestIds, person.ip, person.linkedId, person.url]
    expect((await tablesContaining(handle.db, needles)).length).toBeGreaterThan(5)
    // The webhook's attempt log and the sign-up's delivery hold it too, before the forget.
    expect(await tablesContaining(handle.db, [person.linkedId, person.email])).toEqual(
      expect.arrayContaining([`webhook_attempts: ${person.linkedId}`, `webhook_deliveries: ${person.email}`]),
    )

    expect(await forgetVisitor({ db: handle.db, visitorId: person.visitorId })).toBe(true)

    expect(await tablesContaining(handle.db, needles)).toEqual([])
    // The account stays the integrator's record, unlinked; it keeps only the device mark.
    const [account] = await queryRows<{ visitor_id: string | null; device_mark: string | null }>(
      handle.db,
      sql`select visitor_id, device_mark from accounts where email = ${person.email}`,
    )
    expect(account?.visitor_id).toBeNull()
    expect(account?.device_mark).toMatch(/^[\w-]{43}$/)
    expect(await tablesContaining(handle.db, [person.email])).toEqual([`accounts: ${person.email}`])
    // The other person's data is all there.
    const kept = await tablesContaining(handle.db, [bystander.visitorId, bystander.linkedId])
    expect(kept).toEqual(
      expect.arrayContaining([
        `events: ${bystander.visitorId}`,
        `webhook_deliveries: ${bystander.linkedId}`,
        `signup_decisions: ${bystander.visitorId}`,
        `accounts: ${bystander.visitorId}`,
      ]),
    )
  })

  it.runIf(handle.engine === 'postgres')(
    'forgets the event of an identification that commits while the forget waits for its visitor',
    async () => {
      const person = await seedPersonalData(handle.db, 82)
      const identifying = new Client({ connectionString: handle.url })
      await identifying.connect()
      try {
        // An identification's write as batch-write.ts makes it: the visitor upserted, then its event.
        await identifying.query('begin')
        await identifying.query(
          'update visitors set visits = visits + 1, last_seen_at = now() where id = $1',
          [person.visitorId],
        )
        await identifying.query(
          `insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations)
           select 'late-visit', visitor_id, true, 0.9, 'fingerprint', snapshot, '' from events
           where visitor_id = $1 limit 1`,
          [person.visitorId],
        )
        const forgetting = forgetVisitor({ db: handle.db, visitorId: person.visitorId })
        // The forget waits for the visitor's row, which the identification holds.
        for (let tries = 0; tries < 100; tries += 1) {
          const waiting = await identifying.query('select count(*)::int as n from pg_locks where not granted')
          if (waiting.rows[0]?.n > 0) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        await identifying.query('commit')
        expect(await forgetting).toBe(true)
      } finally {
        await identifying.end()
      }
      const left = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from events where visitor_id = ${person.visitorId}`,
      )
      expect(left[0]?.n).toBe(0)
    },
  )

  it('deletes the sign-up counters of the visitor and of each of its browsers', async () => {
    const ip = '198.51.100.82'
    const first = await identifyDevice(handle.db, { seed: 820, ip })
    await ageBrowser(handle.db, first.requestId, 24)
    // An established browser spends its own counter; a fresh one (storage cleared) the visitor's.
    const own = await identifyDevice(handle.db, { seed: 820, ip, storedToken: first.storedToken })
    const fresh = await identifyDevice(handle.db, { seed: 820, ip })
    expect(fresh.visitorId).toBe(first.visitorId)
    for (const event of [own, fresh])
      await decide(handle.db, { fields: signupFields(), requestId: event.requestId }, ip)
    const counters = async () => {
      const [row] = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from rate_limits where key like 'signup-visitor:%'`,
      )
      return row?.n ?? 0
    }
    const before = await counters()
    expect(before).toBeGreaterThanOrEqual(2)
    await forgetVisitor({ db: handle.db, visitorId: first.visitorId })
    expect(await counters()).toBe(before - 2)
  })

  it("forgets one browser's visits, says whether the visitor went, and keeps the visit count true", async () => {
    const ip = '198.51.100.83'
    const first = await identifyDevice(handle.db, { seed: 830, ip })
    await identifyDevice(handle.db, { seed: 830, ip, storedToken: first.storedToken })
    // Another browser of the same device (storage gone): found by its fingerprint.
    const other = await identifyDevice(handle.db, { seed: 830, ip })
    expect(other.visitorId).toBe(first.visitorId)
    const browsers = await queryRows<{ browser_id: string; n: number }>(
      handle.db,
      sql`select browser_id, count(*)::int as n from events where visitor_id = ${first.visitorId}
          group by browser_id order by n`,
    )
    expect(browsers.map((browser) => browser.n)).toEqual([1, 2])
    const [newer, older] = browsers.map((browser) => browser.browser_id)
    // The newer browser signs up: its decision and its account's link to it go with its visits.
    await decide(handle.db, { fields: signupFields(), requestId: other.requestId }, ip)
    const traces = async () =>
      (
        await queryRows<{ decisions: number; accounts: number }>(
          handle.db,
          sql`select (select count(*)::int from signup_decisions where request_id = ${other.requestId}) as decisions,
                     (select count(*)::int from accounts where browser_id = ${String(newer)}) as accounts`,
        )
      )[0]
    expect(await traces()).toEqual({ decisions: 1, accounts: 1 })
    const visitor = async () =>
      (
        await queryRows<{ visits: number; events: number }>(
          handle.db,
          sql`select visits, (select count(*)::int from events where visitor_id = ${first.visitorId}) as events
              from visitors where id = ${first.visitorId}`,
        )
      )[0]

    expect(await forgetBrowser({ db: handle.db, browserId: String(newer) })).toEqual({
      deletedVisits: 1,
      visitorDeleted: false,
    })
    expect(await visitor()).toEqual({ visits: 2, events: 2 })
    expect(await traces()).toEqual({ decisions: 0, accounts: 0 })
    expect(await forgetBrowser({ db: handle.db, browserId: String(newer) })).toEqual({
      deletedVisits: 0,
      visitorDeleted: false,
    })
    expect(await forgetBrowser({ db: handle.db, browserId: String(older) })).toEqual({
      deletedVisits: 2,
      visitorDeleted: true,
    })
    expect(await visitor()).toBeUndefined()
  })
})
