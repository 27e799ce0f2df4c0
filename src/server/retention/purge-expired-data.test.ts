import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, queryRows } from '../db/client'
import { openTestDatabase } from '../db/test-database'
import { identifyVisitor } from '../identification/identify-visitor'
import { syntheticDevice } from '../identification/synthetic-devices'
import { purgeExpiredData } from './purge-expired-data'

describe('purgeExpiredData', () => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openTestDatabase('pglite', '')
  })
  afterAll(() => handle.close())

  it('removes events and visitors past the retention period, and only those', async () => {
    const context = { ip: null, userAgent: null }
    const old = await identifyVisitor({ db: handle.db, input: { components: syntheticDevice(1) }, context })
    const fresh = await identifyVisitor({ db: handle.db, input: { components: syntheticDevice(2) }, context })
    await handle.db.execute(
      sql`update events set created_at = now() - interval '91 days' where visitor_id = ${old.visitorId}`,
    )
    await handle.db.execute(
      sql`update visitors set last_seen_at = now() - interval '91 days' where id = ${old.visitorId}`,
    )

    expect(await purgeExpiredData({ db: handle.db, days: 90 })).toEqual({ events: 1, visitors: 1 })
    const left = await queryRows<{ visitor_id: string }>(handle.db, sql`select visitor_id from events`)
    expect(left.map((row) => row.visitor_id)).toEqual([fresh.visitorId])
    const [stats] = await queryRows<{ total: number }>(
      handle.db,
      sql`select sum(visitors)::int as total from component_stats where component = 'platform'`,
    )
    expect(stats?.total).toBe(1)
  })
})
