// Security, third pass (SECURITY.md, "What a copied fingerprint can do"): anyone can read a device's
// components and replay them. The copy may be recognised as the device; it must never act against
// the device's own browser.
import { beforeAll, expect, it } from 'vitest'
import type { ComponentResult, Json } from '@/contracts/identify'
import { asComponents, type Device, realisticDevice } from '../../../tests/support/realistic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { forgetBrowser } from './forget-visitor'
import { identifyVisitor } from './identify-visitor'
import { readDeviceReport } from './read-device-report'

const browserOf = (token: string) => token.split('.')[2] ?? ''

/** The victim's device, and the attacker's own (another machine altogether). */
const victim = realisticDevice(501)
const attacker: Device = {
  ...realisticDevice(502),
  fonts: ['Attacker Sans', 'Attacker Mono'],
  screen: [1280, 720],
  timezone: 'Pacific/Honolulu',
  timezoneOffset: 600,
  hardwareConcurrency: 32,
}

/** Steps from the victim's values to the attacker's, one component more at each step. */
function drift(): Device[] {
  const steps: Device[] = []
  let current: Device = { ...victim }
  for (const name of Object.keys(attacker)) {
    if (JSON.stringify(current[name]) === JSON.stringify(attacker[name])) continue
    current = { ...current, [name]: attacker[name] as Json }
    steps.push(current)
  }
  return steps
}

describeOnEachEngine('a copied fingerprint', (database) => {
  const identify = (values: Device, ip: string, token?: string) =>
    identifyVisitor({
      db: database.db,
      input: { components: asComponents(values) as Record<string, ComponentResult> },
      context: { ip, userAgent: 'test', cookieToken: token },
    })

  beforeAll(async () => {
    // A population to be told apart from.
    for (let seed = 1; seed <= 40; seed++) await identify(realisticDevice(seed), `192.0.${seed}.1`)
  })

  it("cannot walk the victim's record to the copier's device, nor take the victim's ID from its browser", async () => {
    const own = await identify(victim, '198.51.100.7')
    // The copier replays the victim's components, then comes back with its token, drifting step by step.
    const replay = await identify(victim, '203.0.113.9')
    expect(replay.visitorId).toBe(own.visitorId)
    let token = replay.storedToken
    for (const step of drift()) token = (await identify(step, '203.0.113.9', token)).storedToken

    // The victim's own browser keeps its ID, and a storage-gone visit of the victim is still the victim.
    expect((await identify(victim, '198.51.100.7', own.storedToken)).visitorId).toBe(own.visitorId)
    expect((await identify(victim, '192.0.200.1')).visitorId).toBe(own.visitorId)
    // The copier's own device, without the token, is not the victim.
    expect((await identify(attacker, '203.0.113.10')).visitorId).not.toBe(own.visitorId)
  })

  it("cannot erase the victim's visits by creating the visitor first and forgetting it", async () => {
    const device = realisticDevice(601)
    const claim = await identify(device, '203.0.113.20')
    const arrival = await identify(device, '198.51.100.20')
    expect(arrival.visitorId).toBe(claim.visitorId)
    let token = arrival.storedToken
    for (let page = 0; page < 3; page++) token = (await identify(device, '198.51.100.20', token)).storedToken

    await forgetBrowser({ db: database.db, browserId: browserOf(claim.storedToken) })

    const report = await readDeviceReport({
      db: database.db,
      visitorId: arrival.visitorId,
      browserId: browserOf(token),
    })
    expect(report?.visits).toBe(4)
    expect((await identify(device, '198.51.100.20', token)).visitorId).toBe(arrival.visitorId)
  })

  it("shows the copier none of the victim's activity, and the victim none of the copier's", async () => {
    const device = realisticDevice(701)
    const own = await identify(device, '198.51.100.30')
    const replay = await identify(device, '203.0.113.30')
    expect(replay.visitorId).toBe(own.visitorId)
    let token = own.storedToken
    for (let page = 0; page < 4; page++) token = (await identify(device, '198.51.100.30', token)).storedToken

    const copier = await readDeviceReport({
      db: database.db,
      visitorId: own.visitorId,
      browserId: browserOf(replay.storedToken),
    })
    expect(copier?.visits).toBe(1)
    expect(copier?.history).toHaveLength(1)
    const owner = await readDeviceReport({
      db: database.db,
      visitorId: own.visitorId,
      browserId: browserOf(token),
    })
    expect(owner?.visits).toBe(5)
  })

  it("does not make the victim's own browser look busy or suspect by replaying its fingerprint", async () => {
    const device = realisticDevice(801)
    const own = await identify(device, '198.51.100.40')
    for (let replay = 0; replay < 25; replay++) await identify(device, `203.0.${113 + (replay % 5)}.40`)
    const next = await identify(device, '198.51.100.40', own.storedToken)
    expect(next.visitorId).toBe(own.visitorId)
    const velocity = next.signals.velocity?.result as {
      events: Record<string, number>
      distinctIps: Record<string, number>
    }
    expect(velocity.events['5m']).toBe(2)
    expect(velocity.distinctIps['1h']).toBe(1)
    expect(next.suspectScore).toBe(own.suspectScore)
    // Without storage, the device is measured by everything it did: the replays count.
    const storageGone = await identify(device, '198.51.100.41')
    const seen = storageGone.signals.velocity?.result as { events: Record<string, number> }
    expect(seen.events['5m']).toBeGreaterThan(25)
  })
})
