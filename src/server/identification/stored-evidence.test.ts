import { eq, sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { ensureComingEventPartitions } from '../db/event-partitions'
import { events } from '../db/schema'
import { identifyVisitor } from './identify-visitor'

describeOnEachEngine('the evidence an event stores', (suite) => {
  it('keeps every facet and total to a thousandth of a bit, written as numbers in under 80 bytes', async () => {
    const { db } = suite
    await ensureComingEventPartitions(db)
    const identify = (seed: number) =>
      identifyVisitor({
        db,
        input: { components: syntheticDevice(seed) },
        context: { ip: '198.51.100.31', userAgent: 'test' },
      })
    for (let seed = 1; seed <= 4; seed++) await identify(seed)
    // A returning device without its token: matched by fingerprint, on evidence.
    const again = await identify(2)
    const [stored] = await db
      .select({ evidence: events.evidence, method: events.method })
      .from(events)
      .where(eq(events.requestId, again.requestId))
    expect(stored?.method).toBe('fingerprint')
    const evidence = stored?.evidence
    if (!evidence) throw new Error('The fingerprint match stored no evidence.')
    const numbers = [
      evidence.bits,
      evidence.twinBits,
      evidence.contextBits,
      ...evidence.facets.map((facet) => facet.bits),
    ]
    expect(evidence.facets.length).toBeGreaterThan(10)
    for (const bits of numbers) expect(Math.abs(bits * 1e3 - Math.round(bits * 1e3))).toBeLessThan(1e-6)
    const [size] = await queryRows<{ bytes: number }>(
      db,
      sql`select octet_length(evidence) as bytes from events where request_id = ${again.requestId}`,
    )
    expect(size?.bytes).toBeLessThan(80)
  })
})
