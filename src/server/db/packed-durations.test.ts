import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase, queryRows } from './client'
import { packDurations, unpackDurations } from './packed-durations'

let handle: DatabaseHandle
beforeAll(async () => {
  handle = await openDatabase({ dataDir: 'memory://' })
})
afterAll(() => handle.close())

it('keeps tenths of a millisecond, about a byte each, and clamps what no browser takes', () => {
  const packed = packDurations([0, 0.04, 12.34, 1130.96, null, 1e308, -5])
  expect(unpackDurations(packed)).toEqual([0, 0, 12.3, 1131, null, 429_496_729.4, 0])
  expect(packDurations([0.1, 5, 12.6]).length).toBe(3)
  expect(unpackDurations(packDurations([]))).toEqual([])
})

it('writes the bytes its SQL twin writes, and each reads what the other wrote', async () => {
  const duration = fc.oneof(
    fc.constant(null),
    fc.double({ min: 0, max: 5000, noNaN: true }),
    fc.double({ min: 0, max: 1e12, noNaN: true }),
    fc.integer({ min: 0, max: 100_000 }).map((tenths) => tenths / 10),
  )
  await fc.assert(
    fc.asyncProperty(fc.array(duration, { maxLength: 70 }), async (durations) => {
      const [row] = await queryRows<{ packed: Uint8Array; unpacked: (number | null)[] }>(
        handle.db,
        sql`select tessera_pack_durations(${sql.param(durations)}::float8[]) as packed,
          tessera_unpack_durations(${packDurations(durations)}) as unpacked`,
      )
      expect(Buffer.from(row?.packed ?? [])).toEqual(packDurations(durations))
      expect(row?.unpacked).toEqual(unpackDurations(packDurations(durations)))
    }),
    { numRuns: 200 },
  )
})
