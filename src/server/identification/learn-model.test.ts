import { sql } from 'drizzle-orm'
import { beforeAll, expect, it } from 'vitest'
import type { MatchEvidence } from '@/contracts/device'
import { asComponents, realisticDevice } from '../../../tests/support/realistic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { type Database, queryRows } from '../db/client'
import { ensureEventPartitions } from '../db/event-partitions'
import { EVIDENCE_DICTIONARY } from '../db/packed-dictionaries'
import { packJson } from '../db/packed-json'
import { identifyVisitor } from './identify-visitor'
import { learnModel, NETWORK_SHARE, TOKEN_HISTORY_MS } from './learn-model'

const day = 86_400_000
const now = new Date('2026-11-25T12:00:00.000Z')
/** Evidence of a comeback whose CPU count and contrast changed and nothing else. */
const forged: MatchEvidence = {
  bits: 10,
  twinBits: 2,
  contextBits: 0,
  facets: [
    { facet: 'hardware', level: 'different', bits: -5 },
    { facet: 'accessibility', level: 'different', bits: -5 },
    { facet: 'rendering', level: 'exact', bits: 10 },
  ],
}

let counter = 0
/** A snapshot of no components (its digest only needs to be a uuid here). */
const EMPTY_SNAPSHOT = '99914b93-2bd3-7a50-b983-c5e7c90ae93b'

async function storeComeback(
  db: Database,
  event: { method: string; confidence: number; browserId: string; ip: string; at: Date; browserSince?: Date },
) {
  const visitor = `visitor-${++counter}`
  await db.execute(
    sql`insert into component_snapshots (digest, components) values (${EMPTY_SNAPSHOT}, '{}') on conflict do nothing`,
  )
  await db.execute(sql`insert into visitors (id, profile) values (${visitor}, '{}'::jsonb)`)
  if (event.browserSince) {
    // The browser's first event: when its token was minted.
    await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence,
        method, browser_id, snapshot, durations) values (${`first-${counter}`}, ${visitor}, ${event.browserSince.toISOString()},
        false, 0.99, 'new', ${event.browserId}, ${EMPTY_SNAPSHOT}, '')`)
  }
  await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method,
      evidence, comeback, browser_id, ip, snapshot, durations)
    values (${`comeback-${counter}`}, ${visitor}, ${event.at.toISOString()}, true, ${event.confidence},
      ${event.method}, ${packJson(forged, EVIDENCE_DICTIONARY)}, true, ${event.browserId}, ${event.ip}, ${EMPTY_SNAPSHOT}, '')`)
}

/** Confirmed comebacks learned per bucket of time since their visitor's previous visit. */
async function learnedGaps(db: Database) {
  const rows = await queryRows<{ bucket: number; comebacks: number }>(
    db,
    sql`select bucket, comebacks from return_gaps order by bucket`,
  )
  return Array.from({ length: 5 }, (_, bucket) =>
    Number(rows.find((row) => row.bucket === bucket)?.comebacks ?? 0),
  )
}

async function learnedHardware(db: Database) {
  const [row] = await queryRows<{ observed: number; changed: number }>(
    db,
    sql`select observed, changed from facet_changes where facet = 'hardware'`,
  )
  return { observed: Number(row?.observed ?? 0), changed: Number(row?.changed ?? 0) }
}

describeOnEachEngine('learnModel', (database) => {
  beforeAll(async () => {
    // On PostgreSQL the days around `now` need their tables, as a server running then had.
    await ensureEventPartitions(
      database.db,
      new Date(now.getTime() - 60 * 86_400_000),
      new Date(now.getTime() + 2 * 86_400_000),
    )
    // Forty forged "comebacks" from one network, each a browser whose token was minted minutes before.
    for (let index = 0; index < 40; index++) {
      await storeComeback(database.db, {
        method: 'token',
        confidence: 0.99,
        browserId: `forger-${index}`,
        ip: `198.51.100.${index + 1}`,
        at: new Date(now.getTime() - 3_600_000 + index * 1000),
        browserSince: new Date(now.getTime() - 3_600_000 - 40 * 60_000),
      })
    }
  })

  it('learns nothing from comebacks of browsers whose token has no history', async () => {
    await learnModel({ db: database.db, now })
    expect(await learnedHardware(database.db)).toEqual({ observed: 0, changed: 0 })
  })

  it("takes at most a network's share from one network, however many comebacks it sends", async () => {
    const later = new Date(now.getTime() + 3_600_000)
    for (let index = 0; index < 40; index++) {
      await storeComeback(database.db, {
        method: 'token',
        confidence: 0.99,
        browserId: `flood-${index}`,
        ip: `203.0.113.${index + 1}`,
        at: new Date(later.getTime() - 60_000 + index * 1000),
        browserSince: new Date(later.getTime() - TOKEN_HISTORY_MS - day),
      })
    }
    await learnModel({ db: database.db, now: later })
    const learned = await learnedHardware(database.db)
    expect(learned.observed).toBeGreaterThan(0)
    expect(learned.observed).toBeLessThanOrEqual(NETWORK_SHARE + 1e-6)
  })

  it('counts a long-held token whole, and a browser once', async () => {
    const later = new Date(now.getTime() + 2 * 3_600_000)
    const before = await learnedHardware(database.db)
    const gapsBefore = await learnedGaps(database.db)
    for (const minutes of [50, 40]) {
      await storeComeback(database.db, {
        method: 'token',
        confidence: 0.99,
        browserId: 'loyal',
        ip: '192.0.2.10',
        at: new Date(later.getTime() - minutes * 60_000),
        browserSince: new Date(later.getTime() - TOKEN_HISTORY_MS - 10 * day),
      })
    }
    await learnModel({ db: database.db, now: later })
    const after = await learnedHardware(database.db)
    expect(after.observed - before.observed).toBeCloseTo(1)
    expect(after.changed - before.changed).toBeCloseTo(1)
    // Its visitor's previous visit was eleven days before: one comeback in the week-to-month bucket.
    const gapsAfter = await learnedGaps(database.db)
    expect(gapsAfter.map((count, bucket) => count - (gapsBefore[bucket] ?? 0))).toEqual([0, 0, 0, 1, 0])
  })

  it('learns nothing from fingerprint matches: they are its own answers', async () => {
    const later = new Date(now.getTime() + 150 * 60_000)
    const before = await learnedHardware(database.db)
    for (let index = 0; index < 20; index++) {
      await storeComeback(database.db, {
        method: 'fingerprint',
        confidence: 0.99,
        browserId: `matched-${index}`,
        ip: `198.51.100.${index + 1}`,
        at: new Date(later.getTime() - 60_000 + index * 1000),
      })
    }
    await learnModel({ db: database.db, now: later })
    expect(await learnedHardware(database.db)).toEqual(before)
  })

  it('measures how devices differ in pairs', async () => {
    // Thirty devices from thirty networks (a sample takes at most a few from one network).
    for (let seed = 1; seed <= 30; seed++) {
      await identifyVisitor({
        db: database.db,
        input: { components: asComponents(realisticDevice(seed)) },
        context: { ip: `192.0.${seed}.1`, userAgent: 'test' },
      })
    }
    const pass = await learnModel({ db: database.db, now: new Date() })
    expect(pass.pairs).toBeGreaterThan(100)
    const [fonts] = await queryRows<{ pairs: number; differed: number }>(
      database.db,
      sql`select pairs, differed from facet_pairs where facet = 'rendering'`,
    )
    // Six font sets among thirty devices: most pairs differ, some agree.
    expect(Number(fonts?.differed)).toBeGreaterThan(0)
    expect(Number(fonts?.differed)).toBeLessThan(Number(fonts?.pairs))
  })

  it('counts how long ago the counted visitors were last seen, by the buckets recency weighs', async () => {
    const { db } = database
    const at = Date.now()
    await db.execute(sql`update visitors set counted = false`)
    await db.execute(sql`insert into visitors (id, profile, counted, last_seen_at) values
      ('seen-lately', '{}', true, ${new Date(at - 10 * 60_000).toISOString()}),
      ('seen-today', '{}', true, ${new Date(at - 5 * 3_600_000).toISOString()}),
      ('seen-this-week-1', '{}', true, ${new Date(at - 3 * 86_400_000).toISOString()}),
      ('seen-this-week-2', '{}', true, ${new Date(at - 4 * 86_400_000).toISOString()}),
      ('seen-long-ago', '{}', true, ${new Date(at - 100 * 86_400_000).toISOString()}),
      ('not-counted', '{}', false, ${new Date(at - 10 * 60_000).toISOString()})`)
    await learnModel({ db, now: new Date(at) })
    const shares = await queryRows<{ bucket: number; visitors: number }>(
      db,
      sql`select bucket, visitors from last_seen_shares order by bucket`,
    )
    expect(shares.map((row) => Number(row.visitors))).toEqual([1, 1, 2, 0, 1])
  })
})
