import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows, selectRows } from './client'
import { settings } from './schema'
import { toIsoTimestamp } from './schema/timestamptz'

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

describe('toIsoTimestamp', () => {
  it('reads PostgreSQL text in any offset as UTC ISO 8601', () => {
    expect(toIsoTimestamp('2026-11-24 15:00:02.947+00')).toBe('2026-11-24T15:00:02.947Z')
    expect(toIsoTimestamp('2026-11-24 16:30:02.947123+01:30')).toBe('2026-11-24T15:00:02.947Z')
    expect(toIsoTimestamp('2026-11-24 15:00:02+00')).toBe('2026-11-24T15:00:02.000Z')
    expect(toIsoTimestamp('2026-11-24 15:00:02.947', false)).toBe('2026-11-24T15:00:02.947Z')
  })

  it('refuses what is not a moment', () => {
    expect(() => toIsoTimestamp('infinity')).toThrow(/not a date/)
  })
})

describeOnEachEngine('timestamps', (handle) => {
  it('read as ISO 8601 through the typed builder and through raw SQL alike', async () => {
    const { db } = handle
    await db.insert(settings).values({ key: 'moment', value: 1, updatedAt: '2026-11-24T15:00:02.947Z' })
    const [built] = await db.select().from(settings).where(eq(settings.key, 'moment'))
    const [raw] = await selectRows(
      db,
      { updatedAt: settings.updatedAt },
      (select) => sql`select ${select} from settings`,
    )
    expect(built?.updatedAt).toBe('2026-11-24T15:00:02.947Z')
    expect(raw?.updatedAt).toBe('2026-11-24T15:00:02.947Z')
  })

  it('read every timestamp column of a raw answer, whatever the session time zone', async () => {
    const { db } = handle
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Asia/Kolkata'`)
      const [row] = await queryRows<Record<string, unknown>>(
        tx,
        sql`select '2026-11-24 15:00:02.947+00'::timestamptz as zoned,
              '2026-11-24 15:00:02.947'::timestamp as naive, now() as now, null::timestamptz as nothing,
              'text' as other`,
      )
      expect(row).toMatchObject({
        zoned: '2026-11-24T15:00:02.947Z',
        naive: '2026-11-24T15:00:02.947Z',
        nothing: null,
        other: 'text',
      })
      expect(row?.now).toMatch(iso)
    })
  })
})
