import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { type SQL, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, describe, expect, it } from 'vitest'
import type { StoredSignals } from '@/contracts/signals'
import { eventComponents, snapshotOfEvent } from '../identification/component-snapshots'
import { networkOf } from '../identification/network-of'
import { addressKey } from '../rate-limit/address-key'
import { queryRows, selectRows, violatedConstraint } from './client'
import { COMPONENTS_DICTIONARY } from './packed-dictionaries'
import * as schema from './schema'
import { flagsOf } from './schema'

const migrations = path.join(process.cwd(), 'src/server/db/migrations')
const folders: string[] = []

/** The migrations folder as it was up to (and including) `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'tessera-migrations-'))
  folders.push(folder)
  cpSync(migrations, folder, { recursive: true })
  const journalFile = path.join(folder, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] }
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag)
  journal.entries = journal.entries.slice(0, last + 1)
  writeFileSync(journalFile, JSON.stringify(journal))
  return folder
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

describe('migration 0010 (normalised emails)', () => {
  it('keeps accounts whose emails differ only in case, and then refuses new ones', async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0009_privacy_coverage') })
      await db.execute(sql`insert into accounts (id, email, name, password_hash, created_at) values
        ('a1', 'Grace@example.com', 'Grace', 'x', '2026-01-01'),
        ('a2', 'grace@example.com', 'Grace again', 'x', '2026-01-02'),
        ('a3', 'GRACE@EXAMPLE.COM', 'Grace thrice', 'x', '2026-01-03'),
        ('a4', 'Ada@example.com', 'Ada', 'x', '2026-01-04')`)

      await migrate(db, { migrationsFolder: migrations })

      const rows = await queryRows<{ id: string; email: string; email_normalised: string | null }>(
        db,
        sql`select id, email, email_normalised from accounts order by id`,
      )
      expect(rows).toEqual([
        { id: 'a1', email: 'Grace@example.com', email_normalised: 'grace@example.com' },
        { id: 'a2', email: 'grace@example.com', email_normalised: null },
        { id: 'a3', email: 'GRACE@EXAMPLE.COM', email_normalised: null },
        { id: 'a4', email: 'Ada@example.com', email_normalised: 'ada@example.com' },
      ])
      const duplicate = await db
        .execute(sql`insert into accounts (id, email, email_normalised, name, password_hash)
          values ('a5', 'ada@example.com', 'ada@example.com', 'Ada again', 'x')`)
        .catch((error: unknown) => error)
      expect(violatedConstraint(duplicate)).toBe('accounts_email_normalised')
    } finally {
      await client.close()
    }
  })
})

describe('migration 0011 (Fingerprint v4)', () => {
  it("keeps existing webhooks in Tessera's format and events without a suspect flag", async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0010_normalised_emails') })
      await db.execute(sql`insert into sites (id, name, public_key) values ('s1', 'Shop', 'pk_1')`)
      await db.execute(
        sql`insert into webhooks (id, site_id, url, secret) values ('w1', 's1', 'https://h.example', 'x')`,
      )

      await migrate(db, { migrationsFolder: migrations })

      const [row] = await queryRows<{ format: string; bad: string | null; good: string }>(
        db,
        sql`select (select format from webhooks where id = 'w1') as format,
                   tessera_try_inet('999.1.1.1')::text as bad, tessera_try_inet('10.0.0.1')::text as good`,
      )
      expect(row).toEqual({ format: 'tessera', bad: null, good: '10.0.0.1/32' })
      const refused = await db
        .execute(sql`update webhooks set format = 'fingerprint' where id = 'w1'`)
        .catch((error: unknown) => error)
      expect(violatedConstraint(refused)).toBe('webhooks_format')
    } finally {
      await client.close()
    }
  })
})

describe('migrations 0015 to 0017 (ipVelocity, network evidence)', () => {
  it("gives the last 30 days of events their address's network, as identification writes it, and the last day's their AS and country", async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0014_ip_blocklist') })
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      const addresses = [
        '198.51.100.7',
        '2001:db8:1:2::9',
        'not an address',
        '::ffff:192.0.2.1',
        '203.0.113.9',
      ]
      for (const [index, ip] of addresses.entries()) {
        const age = ip === '203.0.113.9' ? '31 days' : '1 hour'
        const signals = JSON.stringify({
          ipInfo: {
            result:
              index === 0
                ? { asn: 64_500, countryCode: 'DE' }
                : index === 1
                  ? { asn: 4_294_967_294, countryCode: 'JP' }
                  : null,
          },
        })
        await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, ip,
            components, signals, created_at)
          values (${`r${index}`}, 'v1', false, 1, 'new', ${ip}, '{}', ${signals}::jsonb, now() - ${age}::interval)`)
      }

      await migrate(db, { migrationsFolder: migrations })

      const rows = await queryRows<{ ip: string; network: string | null }>(
        db,
        sql`select ip, network from events order by request_id`,
      )
      expect(rows).toEqual([
        { ip: '198.51.100.7', network: networkOf('198.51.100.7') },
        { ip: '2001:db8:1:2::9', network: networkOf('2001:db8:1:2::9') },
        { ip: 'not an address', network: null },
        { ip: '::ffff:192.0.2.1', network: null },
        { ip: '203.0.113.9', network: null },
      ])
      expect(rows.slice(0, 2).map((row) => row.network)).toEqual(['198.51.100.0/24', '2001:db8:1::/56'])
      // Migration 0016: the AS number from the stored ipInfo signal, where it has one.
      const places = await queryRows<{ asn: number | null; country: string | null }>(
        db,
        sql`select asn, country from events order by request_id`,
      )
      expect(places.map((row) => [row.asn, row.country])).toEqual([
        [64_500, 'DE'],
        // A private-use AS number (beyond an integer) means no operator.
        [null, 'JP'],
        [null, null],
        [null, null],
        [null, null],
      ])
    } finally {
      await client.close()
    }
  })
})

describe('migrations 0018–0020 (component snapshots, console rollups)', () => {
  it('moves every stored event into a shared snapshot and gives back exactly what each event stored', async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0017_event_country') })
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}'), ('v2', '{}')`)
      const device = (duration: number, screen: number[]) => ({
        screen: { value: screen, duration },
        fonts: { value: ['Arial', 'Noto Sans', 'ü—€'], duration: duration * 2 },
        audio: { error: 'Timeout: no answer within 400 ms', duration: 400.1 },
        canvas: { value: { text: 'a1b2', nested: { deep: [1, 2.5, null, true] } }, duration: 0.1 },
      })
      const stored = {
        r1: device(1.5, [1920, 1080]),
        r2: device(17.3, [1920, 1080]),
        r3: device(2, [1280, 800]),
      }
      for (const [requestId, components] of Object.entries(stored))
        await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, components)
          values (${requestId}, ${requestId === 'r3' ? 'v2' : 'v1'}, false, 1, 'new', ${JSON.stringify(components)}::jsonb)`)

      await migrate(db, { migrationsFolder: migrations })

      const snapshots = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from component_snapshots`,
      )
      expect(snapshots[0]?.n).toBe(2)
      const rows = await selectRows(
        db,
        {
          requestId: sql<string>`e.request_id`,
          components: eventComponents('e'),
          snapshot: sql<string>`e.snapshot`,
        },
        (select) => sql`select ${select} from events e order by request_id`,
      )
      expect(Object.fromEntries(rows.map((row) => [row.requestId, row.components]))).toEqual(stored)
      // Identification (migration 0040: the server digests, not SQL) gives the same values the digest
      // the migration gave them, so a returning device reuses its snapshot.
      expect(snapshotOfEvent(device(99, [1920, 1080])).digest).toBe(rows[0]?.snapshot)
      expect(snapshotOfEvent(device(99, [1280, 800])).digest).toBe(rows[2]?.snapshot)
      // Migration 0020: what was stored is in the console's rollups: three identifications, two visitors.
      const [rolled] = await queryRows<{ identifications: number; sketch: number }>(
        db,
        sql`select (select sum(identifications)::int from event_rollups) as identifications,
              (select sum(length(sketch))::int from visitor_sketches) as sketch`,
      )
      expect(rolled).toEqual({ identifications: 3, sketch: 1 + 2 * 8 })
      // Deleting the visitor's events deletes their snapshot with the last one.
      await db.execute(sql`delete from events where visitor_id = 'v2'`)
      const left = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from component_snapshots`)
      expect(left[0]?.n).toBe(1)
    } finally {
      await client.close()
    }
  })
})

describe('migration 0022 (snapshots keep their last day)', () => {
  it("gives each stored snapshot its latest event's UTC day, and drops the foreign key", async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0021_event_partitions') })
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      await db.execute(sql`insert into component_snapshots values
        ('11111111-1111-4111-8111-111111111111', '{"a":1}'), ('22222222-2222-4222-8222-222222222222', '{"b":2}')`)
      const event = (id: string, at: string, snapshot: string) =>
        db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method, snapshot, durations)
          values (${id}, 'v1', ${at}, true, 1, 'new', ${snapshot}, '{}')`)
      await event('r1', '2026-03-01T10:00:00Z', '11111111-1111-4111-8111-111111111111')
      // 23:30 on 4 March in New York is 5 March in UTC: the day is UTC's.
      await event('r2', '2026-03-04T23:30:00-05:00', '11111111-1111-4111-8111-111111111111')
      await event('r3', '2026-02-10T08:00:00Z', '22222222-2222-4222-8222-222222222222')

      await migrate(db, { migrationsFolder: migrations })

      const days = await queryRows<{ digest: string; day: string }>(
        db,
        sql`select digest::text, last_day::text as day from component_snapshots order by digest`,
      )
      expect(days).toEqual([
        { digest: '11111111-1111-4111-8111-111111111111', day: '2026-03-05' },
        { digest: '22222222-2222-4222-8222-222222222222', day: '2026-02-10' },
      ])
      const keys = await queryRows(
        db,
        sql`select 1 from pg_constraint where conrelid = 'events'::regclass and confrelid = 'component_snapshots'::regclass`,
      )
      expect(keys).toHaveLength(0)
    } finally {
      await client.close()
    }
  })
})

describe('migration 0039 (packed signals and evidence, their flags)', () => {
  it('keeps every stored event’s signals and evidence readable, and gives it the flags of its signals', async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0038_visitors_last_seen') })
      await db.execute(
        sql`insert into component_snapshots values ('11111111-1111-4111-8111-111111111111', '{}')`,
      )
      const vpn = (result: boolean, confidence: 'low' | 'medium' | 'high') => ({
        result,
        confidence,
        reasons: [],
        details: {
          originTimezone: 'Europe/Berlin',
          originCountry: 'DE',
          methods: { timezoneMismatch: result, publicVpn: false, relay: false },
        },
      })
      const ipInfo = (asn: number, countryCode: string) => ({
        result: {
          address: '198.51.100.7',
          version: 4 as const,
          countryCode,
          countryName: null,
          region: null,
          city: null,
          latitude: null,
          longitude: null,
          timezone: null,
          asn,
          asnOrganization: null,
          asnType: 'isp' as const,
        },
        reasons: [],
      })
      const stored: StoredSignals[] = [
        {},
        {
          bot: { result: 'bad', kind: 'Headless Chromium', reasons: ['x'] },
          tor: { result: true, reasons: [] },
        },
        {
          bot: { result: 'good', reasons: [] },
          vpn: vpn(true, 'medium'),
          tampering: { result: false, reasons: [] },
          ipInfo: ipInfo(3320, 'DE'),
        },
        {
          ipInfo: ipInfo(65_000, 'FR'),
          bot: { result: 'notDetected', reasons: [] },
          vpn: vpn(false, 'low'),
          privateMode: { result: true, reasons: ['y'] },
          privacyBrowser: { result: false, reasons: [] },
          virtualMachine: { result: true, reasons: [] },
          datacenter: { result: true, kind: 'Example Cloud', reasons: [] },
          proxy: { result: false, confidence: 'high', reasons: [] },
          ipBlocklist: { result: true, reasons: [] },
        },
      ]
      const evidence = {
        bits: 12.5,
        twinBits: 1,
        contextBits: 0.25,
        facets: [{ facet: 'time', level: 'exact', bits: 3 }],
      }
      const durations = ['{}', '{0.1,1130.9,0,NULL,12.34,1e308}', '{7}', '{0.05}']
      for (const [index, signals] of stored.entries())
        await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, evidence,
            signals, snapshot, durations)
          values (${`r${index}`}, 'v1', true, 1, 'fingerprint', ${index === 1 ? JSON.stringify(evidence) : null}::jsonb,
            ${JSON.stringify(signals)}::jsonb, '11111111-1111-4111-8111-111111111111', ${durations[index]}::float8[])`)

      await migrate(db, { migrationsFolder: migrations })

      // The builder reads the JSON the rows held, and the SQL flags are the ones identify would write.
      const rows = await db
        .select({
          signals: schema.events.signals,
          evidence: schema.events.evidence,
          flags: schema.events.flags,
        })
        .from(schema.events)
        .orderBy(schema.events.requestId)
      expect(rows.map((row) => row.signals)).toEqual(stored)
      expect(rows.map((row) => row.evidence)).toEqual([null, evidence, null, null])
      expect(rows.map((row) => row.flags)).toEqual(stored.map(flagsOf))
      // Operator and country from the ipInfo signal where the row had none (a private-use AS is none).
      const places = await queryRows<{ asn: number | null; country: string | null }>(
        db,
        sql`select asn, country from events order by request_id`,
      )
      expect(places).toEqual([
        { asn: null, country: null },
        { asn: null, country: null },
        { asn: 3320, country: 'DE' },
        { asn: null, country: 'FR' },
      ])
      // Durations to a tenth of a millisecond (what the agent measures), packed about a byte each.
      const unpacked = await queryRows<{ durations: (number | null)[]; bytes: number }>(
        db,
        sql`select tessera_unpack_durations(durations) as durations, octet_length(durations) as bytes
          from events order by request_id`,
      )
      expect(unpacked.map((row) => row.durations)).toEqual([
        [],
        [0.1, 1130.9, 0, null, 12.3, 429_496_729.4],
        [7],
        [0.1],
      ])
      expect(unpacked.map((row) => row.bytes)).toEqual([0, 1 + 2 + 1 + 1 + 1 + 5, 1, 1])
      // Each partial index's predicate finds the events flagged so.
      const flagged = async (predicate: SQL) =>
        (
          await queryRows<{ id: string }>(
            db,
            sql`select request_id as id from events where ${predicate} order by request_id`,
          )
        ).map((row) => row.id)
      expect(await flagged(schema.FLAGGED.bot)).toEqual(['r1'])
      expect(await flagged(schema.FLAGGED.tor)).toEqual(['r1'])
      expect(await flagged(schema.FLAGGED.vpn)).toEqual(['r2'])
      expect(await flagged(schema.FLAGGED.privateMode)).toEqual(['r3'])
      expect(await flagged(schema.flagIs('tampering', false))).toEqual(['r2'])
      expect(await flagged(schema.botIs(['notDetected']))).toEqual(['r0', 'r3'])
      expect(await flagged(schema.vpnConfidenceIs('low'))).toEqual(['r3'])
      // New rows are packed: far smaller than their JSON, and read back whole.
      const packed = stored[3] ?? {}
      await db.insert(schema.events).values({
        requestId: 'r4',
        visitorId: 'v1',
        visitorFound: false,
        confidence: 1,
        method: 'new',
        signals: packed,
        flags: flagsOf(packed),
        snapshot: '11111111-1111-4111-8111-111111111111',
        durations: Buffer.alloc(0),
      })
      const [sizes] = await queryRows<{ packed: number; text: number }>(
        db,
        sql`select octet_length(signals) as packed, (select octet_length(signals) from events where request_id = 'r3') as text
          from events where request_id = 'r4'`,
      )
      expect(sizes?.packed).toBeLessThan((sizes?.text ?? 0) / 2)
      const [read] = await db
        .select({ signals: schema.events.signals })
        .from(schema.events)
        .where(sql`request_id = 'r4'`)
      expect(read?.signals).toEqual(packed)
    } finally {
      await client.close()
    }
  })
})

describe('migration 0040 (packed component snapshots)', () => {
  it('keeps stored snapshots readable as they were, and packs new ones in a fraction of the bytes', async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0039_packed_signals') })
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      const sent = {
        screen: { value: [1920, 1080], duration: 0.1 },
        fonts: { value: ['Arial', 'ü—€'], duration: 93.6 },
        mathQuirks: { value: [1.9275814160560206e-50, 2.5], duration: 0.5 },
        audio: { error: 'Timeout: no answer within 400 ms', duration: 400.1 },
      }
      // As identification stored them before: the snapshot as jsonb, digested and stripped in SQL.
      await db.execute(sql`insert into component_snapshots (digest, components)
        select tessera_snapshot_digest(tessera_snapshot(${JSON.stringify(sent)}::jsonb)), tessera_snapshot(${JSON.stringify(sent)}::jsonb)`)
      await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations)
        select 'r1', 'v1', true, 1, 'fingerprint', digest,
          tessera_pack_durations(tessera_durations(${JSON.stringify(sent)}::jsonb)) from component_snapshots`)

      await migrate(db, { migrationsFolder: migrations })

      const read = async (requestId: string) =>
        (
          await selectRows(
            db,
            { components: eventComponents('e'), snapshot: sql<string>`e.snapshot` },
            (select) => sql`select ${select} from events e where request_id = ${requestId}`,
          )
        )[0]
      const before = await read('r1')
      expect(before?.components).toEqual(sent)
      // The same values collected again are the same snapshot: a new event written as identify writes
      // it reads its own durations against the snapshot's stored text.
      const recollected = Object.fromEntries(
        Object.entries(sent).map(([name, result], at) => [name, { ...result, duration: 10 + at }]),
      )
      const again = snapshotOfEvent(recollected)
      expect(again.digest).toBe(before?.snapshot)
      await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations)
        values ('r0', 'v1', true, 1, 'fingerprint', ${again.digest}, ${again.durations})`)
      expect((await read('r0'))?.components).toEqual(recollected)
      // A new snapshot is packed: a fraction of its JSON, and read back through the same path.
      const other = { ...sent, screen: { value: [1280, 800], duration: 2 } }
      const made = snapshotOfEvent(other)
      await db.execute(
        sql`insert into component_snapshots (digest, components) values (${made.digest}, ${made.stored})`,
      )
      await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations)
        values ('r2', 'v1', true, 1, 'fingerprint', ${made.digest}, ${made.durations})`)
      expect((await read('r2'))?.components).toEqual(other)
      const sizes = await queryRows<{ bytes: number; first: number }>(
        db,
        sql`select octet_length(components) as bytes, get_byte(components, 0) as first from component_snapshots order by digest = ${made.digest}`,
      )
      expect(sizes[0]?.first).toBe('{'.charCodeAt(0))
      expect(sizes[1]?.first).toBe(COMPONENTS_DICTIONARY.length)
      expect(sizes[1]?.bytes).toBeLessThan((sizes[0]?.bytes ?? 0) * 0.7)
      // The SQL that digested and rebuilt snapshots is gone: nothing may make a digest another way.
      const functions = await queryRows<{ name: string }>(
        db,
        sql`select proname as name from pg_proc where proname in ('tessera_snapshot', 'tessera_snapshot_digest', 'tessera_components', 'tessera_durations')`,
      )
      expect(functions).toEqual([])
    } finally {
      await client.close()
    }
  })
})

describe('migration 0041 (packed user agents)', () => {
  it('keeps every stored user agent readable, and packs a new one in a fraction of its bytes', async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0040_packed_snapshots') })
      await db.execute(sql`insert into visitors (id, profile) values ('v1', '{}')`)
      const agents = [
        'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
        'curl "quoted" \\ ü',
        null,
      ]
      for (const [index, agent] of agents.entries())
        await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations, user_agent)
          values (${`r${index}`}, 'v1', true, 1, 'fingerprint', '11111111-1111-4111-8111-111111111111', '', ${agent})`)

      await migrate(db, { migrationsFolder: migrations })

      const read = () =>
        db.select({ userAgent: schema.events.userAgent }).from(schema.events).orderBy(schema.events.requestId)
      expect((await read()).map((row) => row.userAgent)).toEqual(agents)
      const chrome =
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36'
      await db.execute(sql`insert into events (request_id, visitor_id, visitor_found, confidence, method, snapshot, durations, user_agent)
        values ('r3', 'v1', true, 1, 'fingerprint', '11111111-1111-4111-8111-111111111111', '', ${schema.events.userAgent.mapToDriverValue(chrome)})`)
      expect((await read()).map((row) => row.userAgent)).toEqual([...agents, chrome])
      const [size] = await queryRows<{ bytes: number }>(
        db,
        sql`select octet_length(user_agent) as bytes from events where request_id = 'r3'`,
      )
      expect(size?.bytes).toBeLessThan(chrome.length / 4)
    } finally {
      await client.close()
    }
  })
})

describe('migrations 0047 and 0048 (sign-up networks, operator names)', () => {
  it("gives the last day's sign-up decisions their network as addressKey writes it, and lowers operator names that stay unique", async () => {
    const client = await PGlite.create('memory://')
    const db = drizzle({ client, schema })
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo('0046_review_undo') })
      await db.execute(sql`insert into signup_decisions (request_id, ip, email, outcome, reasons, created_at) values
        ('d4', '198.51.100.9', 'a@example.com', 'allow', '[]', now() - interval '5 minutes'),
        ('d6', '2001:DB8:1:3:0:0:0:99', 'b@example.com', 'deny', '[]', now() - interval '5 minutes'),
        ('old', '198.51.100.9', 'c@example.com', 'allow', '[]', now() - interval '3 days'),
        ('none', null, 'd@example.com', 'allow', '[]', now()),
        ('junk', 'not an address', 'e@example.com', 'allow', '[]', now())`)
      await db.execute(sql`insert into operators (id, username, role) values
        ('o1', 'Bob', 'admin'), ('o2', 'ana', 'analyst'), ('o3', 'Cy', 'analyst'), ('o4', 'CY', 'analyst'),
        ('o5', 'Dee', 'analyst'), ('o6', 'dee', 'analyst')`)

      await migrate(db, { migrationsFolder: migrations })

      const decisions = await queryRows<{ request_id: string; network: string | null }>(
        db,
        sql`select request_id, network from signup_decisions order by request_id`,
      )
      expect(Object.fromEntries(decisions.map((row) => [row.request_id, row.network]))).toEqual({
        d4: addressKey('198.51.100.9'),
        d6: addressKey('2001:db8:1:3::99'),
        old: null,
        none: null,
        junk: null,
      })
      const names = await queryRows<{ id: string; username: string }>(
        db,
        sql`select id, username from operators order by id`,
      )
      // Bob signs in now; Cy and CY, or Dee beside dee, would be one name: left as they were.
      expect(names.map((row) => row.username)).toEqual(['bob', 'ana', 'Cy', 'CY', 'Dee', 'dee'])
    } finally {
      await client.close()
    }
  })
})
