import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import { Client } from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine, openTestDatabase } from '../../../tests/support/test-database'
import { deleteExpiredSnapshots, storeSnapshots } from '../identification/component-snapshots'
import { forgetVisitor } from '../identification/forget-visitor'
import { identifyVisitor } from '../identification/identify-visitor'
import { purgeExpiredData } from '../retention/purge-expired-data'
import { type Database, queryRows } from './client'
import {
  dropEventPartitionsBefore,
  ensureEventPartitions,
  isMissingDayTable,
  packPastDayIndexes,
} from './event-partitions'
import * as schema from './schema'

const DAY = 86_400_000
const SHARED = '11111111-1111-4111-8111-111111111111'
const ALONE = '22222222-2222-4222-8222-222222222222'
/** Noon UTC today: days and cut-offs below are whole days from it. */
const noon = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`)
const at = (days: number, hours = 0) =>
  new Date(noon.getTime() - days * DAY + hours * 3_600_000).toISOString()

/** An event as identify writes one: its snapshot stored (or its last day moved), then the row. */
async function insertEvent(db: Database, requestId: string, createdAt: string, snapshot: string) {
  const [stored] = await queryRows<{ vanished: number }>(
    db,
    storeSnapshots(
      sql`(select ${snapshot}::uuid as digest, convert_to(json_build_object('d', ${snapshot}::text)::text, 'UTF8') as stored,
        ${createdAt}::timestamptz as created_at) as written`,
    ),
  )
  expect(stored?.vanished).toBe(0)
  await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, snapshot, durations)
    values (${requestId}, 'v1', ${createdAt}, true, 1, 'fingerprint', ${snapshot}, '')`)
}

async function partitionsOf(db: Database): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'events'::regclass order by 1`,
  )
  return rows.map((row) => row.name)
}

const count = async (db: Database, query: ReturnType<typeof sql>) =>
  (await queryRows<{ n: number }>(db, sql`select (${query})::int as n`))[0]?.n

describeOnEachEngine('events by day', (suite) => {
  it('are one partitioned table on PostgreSQL and one plain table on PGlite, read and written the same', async () => {
    const { db } = suite
    const kind = await count(db, sql`select ascii(relkind) from pg_class where oid = 'events'::regclass`)
    expect(String.fromCharCode(kind ?? 0)).toBe(suite.engine === 'postgres' ? 'p' : 'r')
    // A server makes the coming days' tables; a month back is what a server running for a month has.
    const made = await ensureEventPartitions(
      db,
      new Date(noon.getTime() - 45 * DAY),
      new Date(noon.getTime() + 7 * DAY),
    )
    if (suite.engine === 'pglite') expect(made).toBe(0)
    else {
      const days = (await partitionsOf(db)).filter((name) => /^events_[0-9]{8}$/.test(name))
      expect(days).toContain(`events_${at(0).slice(0, 10).replaceAll('-', '')}`)
      expect(days).toContain(`events_${at(45).slice(0, 10).replaceAll('-', '')}`)
      expect(days.length).toBe(53)
      // A second pass makes nothing new.
      expect(await ensureEventPartitions(db, new Date(noon.getTime() - 45 * DAY), noon)).toBe(0)
    }

    await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
    await insertEvent(db, 'old-alone', at(40), ALONE)
    await insertEvent(db, 'old-shared', at(40, 1), SHARED)
    await insertEvent(db, 'late-yesterday-of-cutoff', at(31, 11), SHARED) // 23:00 the day before the cut-off's day
    await insertEvent(db, 'cutoff-day-morning', at(30, -6), SHARED) // 06:00 on the cut-off's day, before the cut-off
    await insertEvent(db, 'today', at(0), SHARED)
    // Each insert is counted once by the console's rollups (the trigger is the partitioned table's own).
    expect(await count(db, sql`select sum(identifications) from event_rollups`)).toBe(5)
    if (suite.engine === 'postgres')
      expect(
        await count(
          db,
          sql`select count(*) from events where tableoid::regclass::text ~ '^events_[0-9]{8}$'`,
        ),
      ).toBe(5)

    const removed = await purgeExpiredData({ db, days: 30, now: noon })
    expect(removed.events).toBe(3)
    const left = await queryRows<{ request_id: string }>(
      db,
      sql`select request_id from events order by created_at`,
    )
    // Events go with their whole UTC day: the cut-off's own day stays until it is wholly past.
    expect(left.map((row) => row.request_id)).toEqual(['cutoff-day-morning', 'today'])
    // The snapshot only the dropped day referenced is gone; the shared one stays.
    const snapshots = await queryRows<{ digest: string }>(db, sql`select digest from component_snapshots`)
    expect(snapshots.map((row) => row.digest)).toEqual([SHARED])
    if (suite.engine === 'postgres') {
      const tables = await partitionsOf(db)
      expect(tables).not.toContain(`events_${at(40).slice(0, 10).replaceAll('-', '')}`)
      expect(tables).toContain(`events_${at(30).slice(0, 10).replaceAll('-', '')}`)
      // Detaching and dropping are parts of the day tables' step (each rounded on its own).
      const { days, detaching, dropping } = removed.took
      expect(detaching).toBeGreaterThan(0)
      expect(dropping).toBeGreaterThan(0)
      expect(detaching + dropping).toBeLessThanOrEqual(days + 1)
    }
    // The day after, the cut-off's day goes too.
    expect((await purgeExpiredData({ db, days: 30, now: new Date(noon.getTime() + DAY) })).events).toBe(1)
    // One plain table has no past day to pack.
    if (suite.engine === 'pglite') expect(await packPastDayIndexes(db, noon.getTime())).toBeNull()
  })

  it('drops no day that is not yet wholly past', async () => {
    const { db } = suite
    await ensureEventPartitions(db, new Date(noon.getTime() - 60 * DAY), noon)
    await insertEvent(db, 'mid-day', at(50), SHARED)
    // The cut-off in the middle of that day: the day is not wholly past, and keeps its event.
    expect((await dropEventPartitionsBefore(db, new Date(at(50, -1)))).events).toBe(0)
    expect(await count(db, sql`select count(*) from events where request_id = 'mid-day'`)).toBe(1)
    // At the next midnight it is, and the pass says where its time went.
    const midnight = new Date(`${at(49).slice(0, 10)}T00:00:00Z`)
    const dropped = await dropEventPartitionsBefore(db, midnight)
    expect(dropped.events).toBe(suite.engine === 'postgres' ? 1 : 0)
    if (suite.engine === 'postgres') {
      expect(dropped.detaching).toBeGreaterThan(0)
      expect(dropped.dropping).toBeGreaterThan(0)
    } else expect(dropped).toEqual({ events: 0, detaching: 0, dropping: 0 })
  })
})

const postgresUrl = inject('postgresUrl')

describe.runIf(postgresUrl)('an upgrade to events by day on PostgreSQL', () => {
  it('keeps every stored event where it is, with its indexes, triggers and keys, and retention empties and drops it', async () => {
    // The database as the previous release left it: every migration applied, events one plain table.
    const name = `tessera_upgrade_${Date.now().toString(36)}`
    const admin = new Client({ connectionString: postgresUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    const url = new URL(postgresUrl)
    url.pathname = `/${name}`
    const client = new Client({ connectionString: url.toString() })
    await client.connect()
    const db = drizzle({ client, schema }) as unknown as Database
    try {
      await migrate(drizzle({ client, schema }), {
        migrationsFolder: path.join(process.cwd(), 'src/server/db/migrations'),
      })
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      await insertEvent(db, 'stored-old', at(40), ALONE)
      await insertEvent(db, 'stored-today', at(0), SHARED)
      const indexes = async (table: string) =>
        (
          await queryRows<{ definition: string }>(
            db,
            sql`select regexp_replace(pg_get_indexdef(indexrelid), ' ON (ONLY )?[a-z_.]+', ' ON') as definition
                from pg_index where indrelid = ${table}::regclass and not indisprimary order by 1`,
          )
        ).map((row) => row.definition)
      const before = await indexes('events')

      await db.execute(sql`select tessera_partition_events()`)
      await db.execute(sql`select tessera_partition_events()`) // a second start changes nothing

      expect(await partitionsOf(db)).toContain('events_before_partitioning')
      expect(await indexes('events')).toEqual(before)
      // The stored table's own indexes became its partition's: none was built twice.
      expect(await indexes('events_before_partitioning')).toHaveLength(before.length)
      expect(await count(db, sql`select count(*) from events_before_partitioning`)).toBe(2)
      // The stored rows kept their data; the key is now (request_id, created_at).
      const primary = await queryRows<{ definition: string }>(
        db,
        sql`select pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = 'events'::regclass and contype = 'p'`,
      )
      expect(primary.map((row) => row.definition)).toEqual(['PRIMARY KEY (request_id, created_at)'])
      // New events go to their day's table, counted once.
      const rolled = await count(db, sql`select sum(identifications) from event_rollups`)
      await insertEvent(db, 'new-tomorrow', new Date(noon.getTime() + DAY).toISOString(), SHARED)
      expect(await count(db, sql`select sum(identifications) from event_rollups`)).toBe((rolled ?? 0) + 1)

      // Retention deletes the old rows from the stored table and its unused snapshot with them...
      expect((await purgeExpiredData({ db, days: 30, now: noon })).events).toBe(1)
      expect(await count(db, sql`select count(*) from component_snapshots where digest = ${ALONE}`)).toBe(0)
      expect(await partitionsOf(db)).toContain('events_before_partitioning')
      // ...and drops it once it is empty. Forgetting the visitor still takes every event.
      await purgeExpiredData({ db, days: 30, now: new Date(noon.getTime() + 32 * DAY) })
      expect(await partitionsOf(db)).not.toContain('events_before_partitioning')
      expect(await count(db, sql`select count(*) from component_snapshots`)).toBe(0) // the visitor and the snapshots went too
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      await insertEvent(db, 'after-upgrade', at(-3), SHARED)
      await forgetVisitor({ db, visitorId: 'v1' })
      expect(await count(db, sql`select count(*) from events`)).toBe(0)
      expect(await count(db, sql`select count(*) from component_snapshots`)).toBe(0)
    } finally {
      await client.end()
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  })

  it("drops events' foreign key to visitors from every day's table on an upgraded database (migration 0037)", async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const { db } = handle
      // The key as releases before 0037 left it on the day tables.
      await db.execute(sql`alter table events add constraint events_visitor_id_visitors_id_fk
        foreign key (visitor_id) references visitors (id) on delete cascade`)
      const keys = () =>
        count(
          db,
          sql`select count(*) from pg_constraint where contype = 'f' and conrelid in
            (select 'events'::regclass union all select inhrelid from pg_inherits where inhparent = 'events'::regclass)`,
        )
      expect(await keys()).toBeGreaterThan(1)
      const migration = readFileSync(
        path.join(process.cwd(), 'src/server/db/migrations/0037_event_visitor_no_fk.sql'),
        'utf8',
      )
      await db.execute(sql.raw(migration))
      expect(await keys()).toBe(0)
      // An expired visitor's events of the cutoff's own day (kept with their day) go with it.
      await ensureEventPartitions(db, new Date(at(31)), new Date(at(29)))
      await db.execute(
        sql`insert into visitors (id, profile, last_seen_at) values ('v1', '{}', ${at(30, 1)})`,
      )
      await insertEvent(db, 'last-visit', at(30, 1), SHARED)
      expect(
        await purgeExpiredData({ db, days: 30, now: new Date(noon.getTime() + 2 * 3_600_000) }),
      ).toMatchObject({
        visitors: 1,
      })
      expect(await count(db, sql`select count(*) from events`)).toBe(0)
    } finally {
      await handle.close()
    }
  })

  it('refuses a row whose day has no table, and identify makes the day and writes', async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const { db } = handle
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      const refused = await insertEvent(db, 'next-month', at(-30), SHARED).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(isMissingDayTable(refused)).toBe(true)
      // Today's table gone (as if a week of passes had failed): the next identification makes it.
      const today = `events_${at(0).slice(0, 10).replaceAll('-', '')}`
      await db.execute(sql`drop table ${sql.identifier(today)}`)
      const answer = await identifyVisitor({
        db,
        input: { components: syntheticDevice(7) },
        context: { ip: '198.51.100.7', userAgent: null },
      })
      expect(answer.visitorId).toBeTruthy()
      expect(await partitionsOf(db)).toContain(today)
      expect(await count(db, sql`select count(*) from events`)).toBe(1)
    } finally {
      await handle.close()
    }
  })

  it('waits, detaching a day, for a transaction that read events, and counts the wait as detaching', async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const { db } = handle
      await ensureEventPartitions(db, new Date(noon.getTime() - 10 * DAY), noon)
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      await insertEvent(db, 'old', at(5), ALONE)
      const cutoff = new Date(`${at(3).slice(0, 10)}T00:00:00Z`)
      let reading: () => void = () => {}
      const read = new Promise<void>((resolve) => {
        reading = resolve
      })
      // An identification's transaction in flight: it read events and holds on for a second.
      const inFlight = db.transaction(async (tx) => {
        await tx.execute(sql`select count(*) from events`)
        reading()
        await new Promise((resolve) => setTimeout(resolve, 1_000))
      })
      await read
      const dropped = await dropEventPartitionsBefore(db, cutoff)
      await inFlight
      expect(dropped.events).toBe(1)
      expect(dropped.detaching).toBeGreaterThanOrEqual(500)
      expect(dropped.dropping).toBeLessThan(dropped.detaching)
    } finally {
      await handle.close()
    }
  })

  it('removes an expired day once when two servers purge at the same time', async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const { db } = handle
      await ensureEventPartitions(db, new Date(noon.getTime() - 10 * DAY), noon)
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      for (let index = 0; index < 20; index++) await insertEvent(db, `old-${index}`, at(5, index / 10), ALONE)
      await insertEvent(db, 'recent', at(1), SHARED)
      const cutoff = new Date(`${at(3).slice(0, 10)}T00:00:00Z`)
      const [first, second] = await Promise.all([
        dropEventPartitionsBefore(db, cutoff),
        dropEventPartitionsBefore(db, cutoff),
      ])
      // One pass removed the day, or each finished what the other left: never counted twice, never lost.
      expect(first.events + second.events).toBe(20)
      expect(await partitionsOf(db)).not.toContain(`events_${at(5).slice(0, 10).replaceAll('-', '')}`)
      // Then both delete the snapshots that day left unused: each is deleted once, the one in use stays.
      const deleted = await Promise.all([
        deleteExpiredSnapshots(db, cutoff),
        deleteExpiredSnapshots(db, cutoff),
      ])
      expect((deleted[0] ?? 0) + (deleted[1] ?? 0)).toBe(1)
      expect(await count(db, sql`select count(*) from component_snapshots where digest = ${SHARED}`)).toBe(1)
      expect(await count(db, sql`select count(*) from component_snapshots where digest = ${ALONE}`)).toBe(0)
      expect(await count(db, sql`select count(*) from events`)).toBe(1)
    } finally {
      await handle.close()
    }
  })

  it("packs a past day's indexes full, newest day first, once each, and leaves today's as they grow", async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const { db } = handle
      await ensureEventPartitions(db, new Date(noon.getTime() - 3 * DAY), noon)
      const table = (days: number) => `events_${at(days).slice(0, 10).replaceAll('-', '')}`
      // Rows in random visitor order, as a day of identifications writes them.
      const fill = (days: number, rows: number) =>
        db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, snapshot, durations)
          select 'r' || ${days} || '-' || n, md5(n::text), ${at(days)}::timestamptz + n * interval '1 second', true, 1,
            'fingerprint', ${SHARED}, '' from generate_series(1, ${rows}) as n order by random()`)
      await fill(2, 4_000)
      await fill(1, 4_000)
      await fill(0, 100)
      // A rebuild a crash cut short: an invalid index named as REINDEX CONCURRENTLY names its new one.
      const yesterday = table(1)
      const failed = await db
        .execute(sql`create unique index concurrently ${sql.identifier(`${yesterday}_visitor_ccnew`)}
          on ${sql.identifier(yesterday)} (snapshot)`)
        .then(
          () => undefined,
          (error: unknown) => error,
        )
      expect(failed).toBeInstanceOf(Error)
      const indexesOf = (name: string) =>
        queryRows<{
          name: string
          bytes: number
          valid: boolean
          options: string[] | null
          parent: string | null
        }>(
          db,
          sql`select c.relname as name, pg_relation_size(c.oid)::int as bytes, x.indisvalid as valid,
              c.reloptions as options, (select inhparent::regclass::text from pg_inherits where inhrelid = c.oid) as parent
            from pg_index x join pg_class c on c.oid = x.indexrelid where x.indrelid = ${name}::regclass order by 1`,
        )
      const before = await indexesOf(yesterday)
      expect(before.filter((index) => !index.valid).map((index) => index.name)).toEqual([
        `${yesterday}_visitor_ccnew`,
      ])
      const visitorIndex = (indexes: { name: string; bytes: number }[]) =>
        indexes.find((index) => index.name.includes('visitor_id_created_at'))?.bytes ?? 0

      // Two servers at once: one packs, and the other finds it packing (or, started after it, packs
      // the day before): never the same day twice, never waiting on each other.
      const both = await Promise.all([
        packPastDayIndexes(db, noon.getTime()),
        packPastDayIndexes(db, noon.getTime()),
      ])
      expect(both).toContain(yesterday)
      const other = both.find((name) => name !== yesterday) ?? null
      expect([null, table(2)]).toContain(other)
      const after = await indexesOf(yesterday)
      // The leftover is gone; every other index is rebuilt full, valid, still the parent's.
      expect(after.map((index) => index.name)).toEqual(
        before.filter((index) => index.valid).map((index) => index.name),
      )
      for (const index of after) {
        expect(index.valid).toBe(true)
        expect(index.options).toEqual(['fillfactor=100'])
        expect(index.parent).toMatch(/^events_/)
      }
      // Keys written in random order leave pages part full; packed, the same keys take less room.
      expect(visitorIndex(after)).toBeLessThan(visitorIndex(before) * 0.85)
      // Read through the rebuilt indexes, the day holds what it held.
      expect(await count(db, sql`select count(*) from events where visitor_id = md5('7')`)).toBe(3)
      expect(await count(db, sql`select count(*) from ${sql.identifier(yesterday)}`)).toBe(4_000)

      // The next passes pack the days before (an empty one too); then none is left, and today's
      // table grows as it is.
      const rest: string[] = []
      for (
        let name = await packPastDayIndexes(db, noon.getTime());
        name;
        name = await packPastDayIndexes(db, noon.getTime())
      )
        rest.push(name)
      expect([other, ...rest].filter((name) => name !== null)).toEqual([table(2), table(3)])
      for (const index of await indexesOf(table(0))) expect(index.options).toBeNull()
      // Tomorrow, today is past.
      expect(await packPastDayIndexes(db, noon.getTime() + DAY)).toBe(table(0))
    } finally {
      await handle.close()
    }
  })

  it('a server opening it converts it once, and a fresh database needs no stored-rows table', async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const tables = await partitionsOf(handle.db)
      expect(tables.length).toBe(9) // yesterday to a week ahead
      expect(tables).not.toContain('events_before_partitioning')
    } finally {
      await handle.close()
    }
  })
})
