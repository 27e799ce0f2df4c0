import { describe, expect, it } from 'vitest'
import { blockingKeys, deviceKeys } from './blocking-keys'
import { blockingGroups as groups } from './component-model'

const blockingGroups: readonly (readonly string[])[] = groups

/** The settings a person changes, each with the components it moves (MODEL.md, blocking). */
const settings: Record<string, readonly string[]> = {
  language: ['languages', 'intlLocale'],
  timeZone: ['timezone', 'timezoneOffset'],
  colorScheme: ['colorScheme'],
  fonts: ['fonts'],
  display: ['screen', 'devicePixelRatio'],
}
const names = Object.keys(settings)
const untouched = (changed: string[]) =>
  blockingGroups.filter(
    (group) => !changed.some((setting) => settings[setting]?.some((c) => group.includes(c))),
  )
const held = (group: readonly string[]) =>
  names.filter((setting) => settings[setting]?.some((component) => group.includes(component))).length

describe('blocking keys', () => {
  it('keep, whichever setting changed, four keys of three others', () => {
    for (const changed of names)
      expect(
        untouched([changed]).filter((group) => held(group) === 3),
        `too few keys survive ${changed}`,
      ).toHaveLength(4)
  })

  it('keep, whichever two settings changed, the key of the three others', () => {
    for (const [index, first] of names.entries())
      for (const second of names.slice(index + 1))
        expect(
          untouched([first, second]).some((group) => held(group) === 3),
          `no key survives ${first} + ${second} with the three other settings`,
        ).toBe(true)
  })

  it('take turns on hardware anchors: an update that re-renders one of them keeps most setting keys', () => {
    for (const rendering of ['canvas', 'webglBasics', 'webglParameters', 'audio']) {
      const settingKeys = blockingGroups.filter((group) => held(group) === 3)
      const kept = settingKeys.filter((group) => !group.includes(rendering))
      expect(kept.length, `a ${rendering} update keeps too few keys`).toBeGreaterThanOrEqual(6)
    }
  })

  it('keep a key of settings alone, for an update that re-renders canvas, WebGL and audio', () => {
    const rendering = ['canvas', 'webglBasics', 'webglParameters', 'audio']
    expect(
      blockingGroups.some(
        (group) => held(group) === names.length && !group.some((c) => rendering.includes(c)),
      ),
    ).toBe(true)
  })

  it('are one per group, differ between workspaces and mark a missing component', () => {
    const digests = { canvas: 'c', platform: 'p', hardwareConcurrency: '8', mathQuirks: 'm' }
    const keys = blockingKeys(digests)
    expect(keys).toHaveLength(blockingGroups.length)
    expect(new Set(keys).size).toBe(keys.length)
    expect(blockingKeys(digests, 'shop')).not.toContain(keys[0])
    const { mathQuirks: _, ...withoutQuirks } = digests
    expect(blockingKeys(withoutQuirks)[0]).not.toBe(keys[0])
  })

  it('find a stored device by the fingerprint it showed before its latest changes, too', () => {
    const now = { colorScheme: 'dark', timezone: 'tokyo', fonts: 'f', canvas: 'c' }
    const keys = deviceKeys(now, { colorScheme: ['light', 'older'], timezone: ['berlin'] })
    const before = blockingKeys({ ...now, colorScheme: 'light', timezone: 'berlin' })
    expect(keys).toEqual(expect.arrayContaining([...blockingKeys(now), ...before]))
    expect(keys).toHaveLength(new Set([...blockingKeys(now), ...before]).size)
    expect(deviceKeys(now, {})).toEqual(blockingKeys(now))
  })
})
