import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { seedPersonalData, tablesContaining } from '../db/test-personal-data'
import { forgetVisitor } from './forget-visitor'

describeOnEachEngine('forgetVisitor', (handle) => {
  it("leaves none of the visitor's personal data in any table, and only that visitor's", async () => {
    const person = await seedPersonalData(handle.db, 80)
    const bystander = await seedPersonalData(handle.db, 81)
    const needles = [person.visitorId, ...person.requestIds, person.ip, person.linkedId, person.url]
    expect((await tablesContaining(handle.db, needles)).length).toBeGreaterThan(5)

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
})
