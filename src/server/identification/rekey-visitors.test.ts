import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { asComponents, realisticDevice } from '../../../tests/support/realistic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { blockingKeys } from './blocking-keys'
import { profileComponents } from './fingerprint-profile'
import { identifyVisitor } from './identify-visitor'
import { MODEL_VERSION } from './model-version'
import { countStaleVisitors, rekeyVisitors, runRekeying } from './rekey-visitors'

describeOnEachEngine('rekeyVisitors', (database) => {
  it('rebuilds visitors of an older model version, so they are found again', async () => {
    const { db } = database
    const devices = [41, 42, 43].map((seed) => asComponents(realisticDevice(seed)))
    const ids: string[] = []
    for (const [index, components] of devices.entries()) {
      const answer = await identifyVisitor({
        db,
        input: { components },
        context: { ip: `192.0.${index}.1`, userAgent: 'test' },
      })
      ids.push(answer.visitorId)
    }
    // As an older version left them: other keys, no parts; the first beyond its network's budget,
    // stored with a platform value the rebuild does not give it (counted among all visitors only).
    await db.execute(sql`update visitors set model_version = 1, parts = '{}'::jsonb`)
    await db.execute(sql`update component_stats set visitors = visitors - 1, all_visitors = all_visitors - 1
      where component = 'platform' and digest = (select profile->>'platform' from visitors where id = ${ids[0] ?? ''})`)
    await db.execute(sql`update visitors set counted = false, profile = profile || '{"platform": "old-platform"}'
      where id = ${ids[0] ?? ''}`)
    await db.execute(sql`insert into component_stats (component, digest, visitors, all_visitors)
      values ('platform', 'old-platform', 0, 1)`)
    await db.execute(sql`delete from visitor_keys`)
    await db.execute(sql`insert into visitor_keys (key, visitor_id) select 'old:' || id, id from visitors`)

    expect(await countStaleVisitors(db)).toBe(3)
    expect(await rekeyVisitors({ db })).toEqual({ rebuilt: 3 })
    expect(await rekeyVisitors({ db })).toEqual({ rebuilt: 0 })
    expect(await countStaleVisitors(db)).toBe(0)
    for (const [index, components] of devices.entries()) {
      const profile = profileComponents(components)
      const keys = await queryRows<{ key: string }>(
        db,
        sql`select key from visitor_keys where visitor_id = ${ids[index] ?? ''} order by key`,
      )
      expect(keys.map(({ key }) => key)).toEqual([...blockingKeys(profile.digests)].sort())
      const [visitor] = await queryRows<{ model_version: number; parts: Record<string, string> }>(
        db,
        sql`select model_version, parts from visitors where id = ${ids[index] ?? ''}`,
      )
      expect(visitor?.model_version).toBe(MODEL_VERSION)
      expect(visitor?.parts).toEqual(profile.parts)
    }
    // Value counts still add up to the visitors stored: two counted, three in all, the old value gone.
    const [counted] = await queryRows<{ n: number; all: number; old: number }>(
      db,
      sql`select sum(visitors)::int as n, sum(all_visitors)::int as all,
        sum(all_visitors) filter (where digest = 'old-platform')::int as old
        from component_stats where component = 'platform'`,
    )
    expect(counted).toEqual({ n: 2, all: 3, old: 0 })
    // Storage gone, the same device comes back from elsewhere: found by the rebuilt keys.
    const again = await identifyVisitor({
      db,
      input: { components: devices[1] ?? {} },
      context: { ip: '203.0.113.99', userAgent: 'test' },
    })
    expect(again.visitorId).toBe(ids[1])
  })

  it('runs in the background and counts the visitors left down to none', async () => {
    const { db } = database
    await db.execute(sql`update visitors set model_version = 1`)
    const stale = await countStaleVisitors(db)
    expect(stale).toBeGreaterThan(0)
    const passes: { rebuilt: number; remaining: number }[] = []
    await new Promise<void>((resolve, reject) => {
      runRekeying(
        db,
        {
          progress: (pass) => {
            passes.push(pass)
            if (pass.remaining === 0) resolve()
          },
          failed: reject,
        },
        1,
      )
    })
    expect(passes).toEqual([{ rebuilt: stale, remaining: 0 }])
    expect(await countStaleVisitors(db)).toBe(0)
  })
})
