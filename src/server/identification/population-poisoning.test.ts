// Security, third pass, items 6 and 7: one client flooding near-copies of a device, or new devices
// from one network, must not shape what matching measures about the population.
import { sql } from 'drizzle-orm'
import { beforeAll, expect, it } from 'vitest'
import type { ComponentResult, Json } from '@/contracts/identify'
import { asComponents, type Device, realisticDevice } from '../../../tests/support/realistic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { getEnv } from '../env'
import { forgetVisitor } from './forget-visitor'
import { identifyVisitor } from './identify-visitor'

describeOnEachEngine('population statistics under a flood', (database) => {
  const identify = (values: Device, ip: string) =>
    identifyVisitor({
      db: database.db,
      input: { components: asComponents(values) as Record<string, ComponentResult> },
      context: { ip, userAgent: 'test' },
    })
  const counted = async () => {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select coalesce(sum(visitors), 0)::int as n from component_stats where component = 'platform'`,
    )
    return row?.n ?? 0
  }
  /** Every stored visitor in the statistics of all visitors (component_stats.all_visitors). */
  const all = async () => {
    const [row] = await queryRows<{ n: number; stored: number }>(
      database.db,
      sql`select (select coalesce(sum(all_visitors), 0) from component_stats where component = 'platform')::int as n,
        (select count(*) from visitors)::int as stored`,
    )
    return row
  }

  /** The flood's devices beyond the budget (the first test's), counted among all visitors only. */
  const beyond: string[] = []

  beforeAll(async () => {
    for (let seed = 1; seed <= 40; seed++) await identify(realisticDevice(seed), `192.0.${seed}.1`)
  })

  it("counts at most a network's hourly budget of new devices in the statistics", async () => {
    const before = await counted()
    const allBefore = await all()
    const budget = getEnv().TESSERA_NEW_DEVICES_PER_NETWORK
    for (let device = 0; device < budget + 20; device++) {
      const answer = await identify(
        { ...realisticDevice(2000 + device), fonts: [`Font ${device}`] },
        `203.0.113.${device + 1}`,
      )
      expect(answer.visitorFound).toBe(false)
      if (device >= budget) beyond.push(answer.visitorId)
    }
    expect((await counted()) - before).toBe(budget)
    // Among all visitors, every one: it only ever makes an agreement count as commoner.
    const allAfter = await all()
    expect((allAfter?.n ?? 0) - (allBefore?.n ?? 0)).toBe(budget + 20)
    expect(allAfter?.n).toBe(allAfter?.stored)
    // Another network still counts.
    await identify({ ...realisticDevice(3000), fonts: ['Elsewhere Sans'] }, '198.18.0.1')
    expect((await counted()) - before).toBe(budget + 1)
  })

  it('takes a forgotten device beyond the budget off the count of all visitors only', async () => {
    const before = { counted: await counted(), all: await all() }
    expect(await forgetVisitor({ db: database.db, visitorId: beyond[0] ?? '' })).toBe(true)
    expect(await counted()).toBe(before.counted)
    const after = await all()
    expect(after?.n).toBe((before.all?.n ?? 0) - 1)
    expect(after?.n).toBe(after?.stored)
  })

  it('still recognises a device after a flood of near-copies of it from one client', async () => {
    const victim: Device = { ...realisticDevice(4000), fonts: ['Victim Sans', 'Victim Serif', 'Victim Mono'] }
    const own = await identify(victim, '198.51.100.77')
    // Twenty near-copies: the victim's values with one font swapped and the canvas redrawn.
    for (let copy = 0; copy < 20; copy++) {
      await identify(
        {
          ...victim,
          fonts: ['Victim Sans', 'Victim Serif', `Copy ${copy}`],
          canvas: { ...(victim.canvas as Record<string, Json>), text: `copy ${copy}` },
        },
        `203.0.114.${copy + 1}`,
      )
    }
    // The victim comes back without storage, from another address, with a font installed.
    const back = await identify(
      { ...victim, fonts: [...(victim.fonts as string[]), 'New Font'] },
      '198.51.101.5',
    )
    expect(back.visitorId).toBe(own.visitorId)
  })

  it('still recognises a device after a flood of other devices on its machine, and merges none of them', async () => {
    const victim: Device = {
      ...realisticDevice(5000),
      fonts: ['Rare Sans', 'Rare Serif'],
      languages: ['nl-NL', 'nl'],
    }
    const own = await identify(victim, '198.51.100.88')
    // Thirty devices from one network with the victim's machine (its GPU, processor, fonts and
    // rendering), set up otherwise: the machine's values together now look common.
    const machine = [
      'hardwareConcurrency',
      'platform',
      'webglBasics',
      'webglParameters',
      'webgpu',
      'canvas',
      'fonts',
      'mathQuirks',
    ]
    const flood: string[] = []
    for (let copy = 0; copy < 30; copy++) {
      const other = realisticDevice(6000 + copy)
      const answer = await identify(
        {
          ...other,
          ...Object.fromEntries(machine.map((name) => [name, victim[name] as Json])),
          languages: ['it-IT', 'it'],
          screen: [1280, 1024],
          availableScreen: [1280, 984, 0, 0],
        },
        `203.0.115.${copy + 1}`,
      )
      flood.push(answer.visitorId)
    }
    expect(flood).not.toContain(own.visitorId)
    // The victim comes back without storage, from another address, with its time zone changed.
    const back = await identify(
      {
        ...victim,
        timezone: victim.timezone === 'Asia/Tokyo' ? 'Europe/Berlin' : 'Asia/Tokyo',
        timezoneOffset: 0,
      },
      '198.51.102.9',
    )
    expect(back.visitorId).toBe(own.visitorId)
  })
})
