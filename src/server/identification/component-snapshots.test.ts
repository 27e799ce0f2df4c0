import { sql } from 'drizzle-orm'
import { Client } from 'pg'
import { expect, it } from 'vitest'
import type { ComponentResult } from '@/contracts/identify'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { type Database, queryRows, violatedConstraint } from '../db/client'
import { ensureEventPartitions } from '../db/event-partitions'
import { purgeExpiredData } from '../retention/purge-expired-data'
import { eventComponents, SNAPSHOT_REFERENCE } from './component-snapshots'
import { forgetVisitor } from './forget-visitor'
import { identifyVisitor } from './identify-visitor'

const context = { ip: '198.51.100.40', userAgent: null }

/** The same device's components, collected again: every duration differs. */
function recollected(components: Record<string, ComponentResult>, seed: number) {
  return Object.fromEntries(
    Object.entries(components).map(([name, result], index) => [
      name,
      { ...result, duration: Math.round(((index * 7 + seed * 13) % 97) * 10.3) / 10 },
    ]),
  )
}

async function storedComponents(db: Database, requestId: string) {
  const [row] = await queryRows<{ components: unknown }>(
    db,
    sql`select ${eventComponents('events')} as components from events where request_id = ${requestId}`,
  )
  return row?.components
}

const count = async (db: Database, table: 'component_snapshots' | 'events') =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]?.n

describeOnEachEngine('component snapshots', (suite) => {
  const { engine } = suite
  it('store what a device repeats once, and give every event back exactly what it sent', async () => {
    const db = suite.db
    const first = recollected(syntheticDevice(501), 1)
    const again = recollected(syntheticDevice(501), 2)
    const other = recollected(syntheticDevice(502), 3)
    const before = await count(db, 'component_snapshots')
    const a = await identifyVisitor({ db, input: { components: first }, context })
    const b = await identifyVisitor({ db, input: { components: again }, context })
    const c = await identifyVisitor({ db, input: { components: other }, context })
    expect(await count(db, 'component_snapshots')).toBe((before ?? 0) + 2)
    expect(await storedComponents(db, a.requestId)).toEqual(first)
    expect(await storedComponents(db, b.requestId)).toEqual(again)
    expect(await storedComponents(db, c.requestId)).toEqual(other)
  })

  it('go with the last event that references them, whoever deletes it', async () => {
    const db = suite.db
    const components = recollected(syntheticDevice(503), 4)
    const kept = await identifyVisitor({ db, input: { components }, context })
    const digestOf = async (requestId: string) =>
      (
        await queryRows<{ snapshot: string }>(
          db,
          sql`select snapshot from events where request_id = ${requestId}`,
        )
      )[0]?.snapshot
    const digest = await digestOf(kept.requestId)
    const exists = async () =>
      (await queryRows(db, sql`select 1 from component_snapshots where digest = ${digest}`)).length === 1

    // Retention takes one of two events: the snapshot stays for the other.
    const later = await identifyVisitor({ db, input: { components: recollected(components, 5) }, context })
    // On PostgreSQL the day it moves to needs its table, as a server running for 91 days has.
    await ensureEventPartitions(db, new Date(Date.now() - 92 * 86_400_000), new Date())
    await db.execute(
      sql`update events set created_at = now() - interval '91 days' where request_id = ${kept.requestId}`,
    )
    await purgeExpiredData({ db, days: 90 })
    expect(await exists()).toBe(true)
    expect(await storedComponents(db, later.requestId)).toEqual(recollected(components, 5))

    // Forgetting the visitor deletes its events by cascade, and the snapshot with them.
    await forgetVisitor({ db, visitorId: later.visitorId })
    expect(await exists()).toBe(false)
  })

  it.runIf(engine === 'postgres')(
    'keep a snapshot that another connection reuses while its last event is being deleted',
    async () => {
      const { db, url } = suite
      const components = recollected(syntheticDevice(504), 6)
      const old = await identifyVisitor({ db, input: { components }, context })
      const [row] = await queryRows<{ snapshot: string; visitor_id: string }>(
        db,
        sql`select snapshot, visitor_id from events where request_id = ${old.requestId}`,
      )
      const reuser = new Client({ connectionString: url })
      const deleter = new Client({ connectionString: url })
      await Promise.all([reuser.connect(), deleter.connect()])
      try {
        // A write that references the snapshot, not yet committed (its foreign key check holds a lock).
        await reuser.query('begin')
        await reuser.query(
          `insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations)
           values ('reuse-1', $1, true, 1, 'fingerprint', $2, '{}')`,
          [row?.visitor_id, row?.snapshot],
        )
        // The only committed reference goes: its trigger must wait, then leave the snapshot be.
        const deleting = deleter.query('delete from events where request_id = $1', [old.requestId])
        await new Promise((resolve) => setTimeout(resolve, 200))
        await reuser.query('commit')
        await deleting
        const left = await queryRows(
          db,
          sql`select 1 from component_snapshots where digest = ${row?.snapshot}`,
        )
        expect(left).toHaveLength(1)
        expect(await storedComponents(db, 'reuse-1')).toBeDefined()
      } finally {
        await Promise.all([reuser.end(), deleter.end()])
      }
    },
  )

  it.runIf(engine === 'postgres')(
    'go with the last two events even when two connections delete one each at the same time',
    async () => {
      const { db, url } = suite
      const components = recollected(syntheticDevice(505), 7)
      const one = await identifyVisitor({ db, input: { components }, context })
      const two = await identifyVisitor({ db, input: { components: recollected(components, 8) }, context })
      const [row] = await queryRows<{ snapshot: string }>(
        db,
        sql`select snapshot from events where request_id = ${one.requestId}`,
      )
      const first = new Client({ connectionString: url })
      const second = new Client({ connectionString: url })
      await Promise.all([first.connect(), second.connect()])
      try {
        await first.query('begin')
        await first.query('delete from events where request_id = $1', [one.requestId])
        // The other event still stands for the first: it keeps the snapshot, holding it locked.
        const deleting = second.query('delete from events where request_id = $1', [two.requestId])
        await new Promise((resolve) => setTimeout(resolve, 200))
        await first.query('commit')
        await deleting
        const left = await queryRows(
          db,
          sql`select 1 from component_snapshots where digest = ${row?.snapshot}`,
        )
        expect(left).toHaveLength(0)
      } finally {
        await Promise.all([first.end(), second.end()])
      }
    },
  )

  it('refuse an event whose snapshot is gone, by the constraint identify retries on', async () => {
    const db = suite.db
    const error = await db
      .execute(
        sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations)
            values ('dangling', (select id from visitors limit 1), true, 1, 'fingerprint',
              '00000000-0000-0000-0000-000000000000', '{}')`,
      )
      .then(
        () => undefined,
        (failure: unknown) => failure,
      )
    expect(violatedConstraint(error)).toBe(SNAPSHOT_REFERENCE)
    expect(await count(db, 'events')).toBeGreaterThan(0)
  })
})
