import { expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import type { Database } from '../db/client'
import { signupDecisions } from '../db/schema'
import { identifyVisitor } from '../identification/identify-visitor'
import { readOverview } from './read-overview'

async function identify(db: Database, seed: number, ip: string, timezone: string) {
  const components = { ...syntheticDevice(seed), timezone: { value: timezone, duration: 0 } }
  return identifyVisitor({ db, input: { components }, context: { ip, userAgent: 'test' } })
}

describeOnEachEngine('the overview by network', (handle) => {
  it('classes identifications and their sign-up decisions by network type and country', async () => {
    const { db } = handle
    // A cloud address (AWS, from a browser in UTC, which says nothing of a place), a German home address twice (once from a browser set to Tokyo: a
    // VPN by the time-zone method), and a private address no database places.
    const cloud = await identify(db, 1, '3.5.140.2', 'UTC')
    await identify(db, 2, '85.214.132.117', 'Europe/Berlin')
    const tokyo = await identify(db, 3, '85.214.132.117', 'Asia/Tokyo')
    await identify(db, 4, '10.0.0.1', 'Europe/Berlin')
    await db.insert(signupDecisions).values([
      {
        requestId: cloud.requestId,
        visitorId: cloud.visitorId,
        ip: '3.5.140.2',
        email: 'a@example.com',
        outcome: 'challenge',
        reasons: [],
      },
      {
        requestId: tokyo.requestId,
        visitorId: tokyo.visitorId,
        ip: '85.214.132.117',
        email: 'b@example.com',
        outcome: 'allow',
        reasons: [],
      },
    ])

    const { networks } = await readOverview({ db, range: '24h' })
    const row = (identifications: number, allow = 0, challenge = 0, deny = 0) => ({
      identifications,
      allow,
      challenge,
      deny,
    })
    expect(networks.byType).toEqual(
      expect.arrayContaining([
        { type: 'datacenter', ...row(1, 0, 1) },
        { type: 'vpn', ...row(1, 1) },
        { type: 'residential', ...row(1) },
        { type: 'unknown', ...row(1) },
      ]),
    )
    expect(networks.byType).toHaveLength(4)
    expect(networks.byCountry[0]).toEqual({ country: 'DE', ...row(2, 1) })
    expect(networks.byCountry).toEqual(
      expect.arrayContaining([
        {
          country: (cloud.signals.ipInfo?.result as { countryCode?: string } | undefined)?.countryCode,
          ...row(1, 0, 1),
        },
        { country: null, ...row(1) },
      ]),
    )
  })
})
