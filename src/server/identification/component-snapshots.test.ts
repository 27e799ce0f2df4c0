import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import { Client } from 'pg'
import { expect, it } from 'vitest'
import type { ComponentResult } from '@/contracts/identify'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { type Database, queryRows, selectRows } from '../db/client'
import { ensureEventPartitions } from '../db/event-partitions'
import { COMPONENTS_DICTIONARY } from '../db/packed-dictionaries'
import { purgeExpiredData } from '../retention/purge-expired-data'
import {
  deleteExpiredSnapshots,
  eventComponents,
  snapshotOfEvent,
  storeSnapshots,
} from './component-snapshots'
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

/** The components without their durations, as a snapshot stores them. */
function stripped(components: Record<string, ComponentResult>) {
  return Object.fromEntries(
    Object.entries(components).map(([name, { duration: _duration, ...rest }]) => [name, rest]),
  )
}

/** What identify's write does for one event on `client`: the snapshot's upsert, then the event. */
async function writeReference(
  client: Client,
  snapshot: string,
  visitorId: string,
  requestId: string,
  at: Date,
) {
  const stored = await drizzle({ client }).execute<{ vanished: number }>(
    storeSnapshots(
      sql`(select ${snapshot}::uuid as digest, '\\x7b7d'::bytea as stored, ${at.toISOString()}::timestamptz as created_at) as written`,
    ),
  )
  // Reused or inserted, never lost between the look and the lock.
  expect(stored.rows[0]?.vanished).toBe(0)
  await client.query(
    `insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, snapshot, durations)
     values ($1, $2, $3, true, 1, 'fingerprint', $4, '')`,
    [requestId, visitorId, at.toISOString(), snapshot],
  )
}

async function storedComponents(db: Database, requestId: string) {
  const [row] = await selectRows(
    db,
    { components: eventComponents('events') },
    (select) => sql`select ${select} from events where request_id = ${requestId}`,
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

  it('are stored packed, in a fraction of their JSON, and their digest is the values not their order', async () => {
    const db = suite.db
    const components = recollected(syntheticDevice(507), 6)
    const answer = await identifyVisitor({ db, input: { components }, context })
    const [row] = await queryRows<{ first: number; bytes: number; digest: string }>(
      db,
      sql`select get_byte(s.components, 0) as first, octet_length(s.components) as bytes, s.digest
        from events e join component_snapshots s on s.digest = e.snapshot where e.request_id = ${answer.requestId}`,
    )
    expect(row?.first).toBe(COMPONENTS_DICTIONARY.length)
    expect(row?.bytes).toBeLessThan(JSON.stringify(stripped(components)).length / 3)
    // The same values sent in another order, with other durations, are the same snapshot.
    const reversed = Object.fromEntries(Object.entries(recollected(components, 7)).reverse())
    expect(snapshotOfEvent(reversed).digest).toBe(row?.digest)
  })

  it('keep durations to a tenth of a millisecond, however long a client says a component took', async () => {
    const db = suite.db
    const components = syntheticDevice(504)
    const [first, second] = Object.keys(components)
    const sent = Object.fromEntries(
      Object.entries(components).map(([name, result]) => [
        name,
        { ...result, duration: name === first ? 1e308 : name === second ? 12.34 : result.duration },
      ]),
    )
    const answer = await identifyVisitor({ db, input: { components: sent }, context })
    const stored = (await storedComponents(db, answer.requestId)) as Record<string, ComponentResult>
    expect(stored[first ?? '']?.duration).toBe(429_496_729.4)
    expect(stored[second ?? '']?.duration).toBe(12.3)
    const [size] = await queryRows<{ bytes: number }>(
      db,
      sql`select octet_length(durations) as bytes from events where request_id = ${answer.requestId}`,
    )
    // About a byte for each component the device sent.
    expect(size?.bytes).toBeLessThan(Object.keys(sent).length * 2)
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
    // A visitor not seen since: its chunk leaves its events' snapshots to their day (migration
    // 0044), for its own transaction only, so the forget below still takes the snapshot with it.
    const expired = await identifyVisitor({ db, input: { components: syntheticDevice(504) }, context })
    await db.execute(
      sql`update visitors set last_seen_at = now() - interval '91 days' where id = ${expired.visitorId}`,
    )
    expect((await purgeExpiredData({ db, days: 90 })).visitors).toBeGreaterThanOrEqual(1)
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
        // A write that references the snapshot as identify writes (its upsert holds the row), not yet committed.
        await reuser.query('begin')
        await writeReference(reuser, row?.snapshot ?? '', row?.visitor_id ?? '', 'reuse-1', new Date())
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
        expect(await storedComponents(db, 'reuse-1')).toEqual(stripped(components))
      } finally {
        await Promise.all([reuser.end(), deleter.end()])
      }
    },
  )

  it.runIf(engine === 'postgres')(
    'keep an expired snapshot that a write reuses while retention deletes it',
    async () => {
      const { db, url } = suite
      const components = recollected(syntheticDevice(506), 9)
      const old = await identifyVisitor({ db, input: { components }, context })
      const [row] = await queryRows<{ snapshot: string; visitor_id: string }>(
        db,
        sql`select snapshot, visitor_id from events where request_id = ${old.requestId}`,
      )
      // Its only event went long ago with its day, as retention leaves it.
      await db.execute(sql`delete from events where request_id = ${old.requestId}`)
      await db.execute(
        sql`insert into component_snapshots (digest, components, last_day)
            values (${row?.snapshot}, convert_to(${JSON.stringify(stripped(components))}, 'UTF8'), current_date - 100)`,
      )
      const reuser = new Client({ connectionString: url })
      await reuser.connect()
      try {
        await reuser.query('begin')
        await writeReference(reuser, row?.snapshot ?? '', row?.visitor_id ?? '', 'reuse-2', new Date())
        // Retention waits for the write's lock, then sees the snapshot used today.
        const deleting = deleteExpiredSnapshots(db, new Date())
        await new Promise((resolve) => setTimeout(resolve, 200))
        await reuser.query('commit')
        await deleting
        expect(await storedComponents(db, 'reuse-2')).toEqual(stripped(components))
      } finally {
        await reuser.end()
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

  it('keep the last day an event used them, and retention deletes those no stored event can reference', async () => {
    const db = suite.db
    const components = recollected(syntheticDevice(507), 10)
    const first = await identifyVisitor({ db, input: { components }, context })
    const lastDay = async () =>
      (
        await queryRows<{ day: string }>(
          db,
          sql`select s.last_day::text as day from component_snapshots s join events e on e.snapshot = s.digest
              where e.request_id = ${first.requestId}`,
        )
      )[0]?.day
    const today = new Date().toISOString().slice(0, 10)
    expect(await lastDay()).toBe(today)
    // Marked as last used long ago (as when the device was away), a write moves it to today again...
    await db.execute(
      sql`update component_snapshots set last_day = '2020-01-01'
          where digest = (select snapshot from events where request_id = ${first.requestId})`,
    )
    await identifyVisitor({ db, input: { components: recollected(components, 11) }, context })
    expect(await lastDay()).toBe(today)
    // ...and one whose last day is older than every stored event is deleted, the others stay.
    await db.execute(sql`insert into component_snapshots (digest, components, last_day)
        values ('44444444-4444-4444-8444-444444444444', '{"x":1}', '2020-01-01')`)
    const stored = await count(db, 'component_snapshots')
    expect(await deleteExpiredSnapshots(db, new Date())).toBeGreaterThanOrEqual(1)
    expect(await count(db, 'component_snapshots')).toBeLessThan(stored ?? 0)
    expect(
      await queryRows(
        db,
        sql`select 1 from component_snapshots where digest = '44444444-4444-4444-8444-444444444444'`,
      ),
    ).toHaveLength(0)
    // Every stored event still has its components.
    const orphans = await queryRows(
      db,
      sql`select 1 from events e where not exists (select 1 from component_snapshots s where s.digest = e.snapshot)`,
    )
    expect(orphans).toHaveLength(0)
  })
})
