import { expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { readEventContexts } from '../fingerprint/read-fingerprint-events'
import { identifyVisitor } from '../identification/identify-visitor'
import { createSite } from '../sites/create-site'
import { searchEvents } from './search-events'
import { updateEvent } from './update-event'

describeOnEachEngine('the search filters of both faces', (handle) => {
  it('matches an operator by its AS number, and one no event can have as nothing, without failing', async () => {
    const db = handle.db
    const site = await createSite({ db, name: 'Operators', allowedOrigins: [] })
    const caller = { sitePublicKey: site.publicKey }
    // An address the offline network data places, with its operator.
    const placed = await identifyVisitor({
      db,
      input: { components: syntheticDevice(40), siteKey: site.publicKey },
      context: { ip: '81.2.69.142', userAgent: null },
    })
    const asn = placed.signals.ipInfo.result?.asn
    if (!asn) throw new Error('The test address has no operator in the network data.')
    const found = async (number: number) =>
      (await searchEvents({ db, caller, filter: { asn: number, limit: 10 } })).events.map(
        (event) => event.requestId,
      )
    expect(await found(asn)).toEqual([placed.requestId])
    expect(await found(asn + 1)).toEqual([])
    // Private-use and beyond a 32-bit column: v4 accepts ten digits.
    expect(await found(4_200_000_000)).toEqual([])
    expect(await found(9_999_999_999)).toEqual([])
  })

  it('matches IP ranges, reading addresses that are not addresses as no match', async () => {
    const db = handle.db
    const site = await createSite({ db, name: 'Shop', allowedOrigins: [] })
    const caller = { sitePublicKey: site.publicKey }
    const stored: Record<string, string> = {}
    // Whatever X-Forwarded-For said is stored: a range search must not fail on any of it.
    for (const [seed, ip] of [
      '10.1.2.3',
      '10.1.9.9',
      '2001:db8::7',
      'not-an-ip',
      '999.1.1.1',
      '10.2.0.1',
    ].entries()) {
      const event = await identifyVisitor({
        db,
        input: { components: syntheticDevice(seed), siteKey: site.publicKey },
        context: { ip, userAgent: null },
      })
      stored[ip] = event.requestId
    }
    const found = async (filter: Parameters<typeof searchEvents>[0]['filter']) =>
      (await searchEvents({ db, caller, filter })).events.map((event) => event.ip).sort()
    expect(await found({ ipRange: '10.1.0.0/16', limit: 10 })).toEqual(['10.1.2.3', '10.1.9.9'])
    expect(await found({ ipRange: '2001:db8::/32', limit: 10 })).toEqual(['2001:db8::7'])
    expect(await found({ ipRange: '0.0.0.0/0', limit: 10 })).toEqual(['10.1.2.3', '10.1.9.9', '10.2.0.1'])
    expect(await found({ ip: 'not-an-ip', limit: 10 })).toEqual(['not-an-ip'])

    // The suspect flag, set through the shared verb, filters; never-flagged events match neither value.
    await updateEvent({ db, caller, requestId: stored['10.2.0.1'] ?? '', update: { suspect: true } })
    expect(await found({ suspect: true, limit: 10 })).toEqual(['10.2.0.1'])
    expect(await found({ suspect: false, limit: 10 })).toEqual([])
    expect(await found({ signals: { tampering: false }, minSuspectScore: 0, limit: 10 })).toHaveLength(6)
    expect(await found({ minSuspectScore: 0.5, limit: 10 })).toEqual([])

    const contexts = await readEventContexts(db, Object.values(stored))
    expect(contexts.get(stored['10.2.0.1'] ?? '')).toMatchObject({ suspect: true, lastSeenAt: null })
    expect(contexts.get(stored['10.1.2.3'] ?? '')?.firstSeenAt).toEqual(expect.any(String))
  })
})
