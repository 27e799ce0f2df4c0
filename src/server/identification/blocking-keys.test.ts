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
    expect(deviceKeys(now, {})).toEqual(blockingKeys(now))
  })

  it('find a device that shows its settings in a mix of latest and earlier values, with others changed', () => {
    // Stored: the time zone and the colour scheme switched at its latest visit. It comes back with
    // the colour scheme as it was before, the new time zone kept, and the language and fonts
    // changed: three settings differ from its latest fingerprint and three from the one before.
    const hardware = { canvas: 'c', webglBasics: 'w', audio: 'a', platform: 'p', hardwareConcurrency: '8' }
    const latest = {
      ...hardware,
      languages: 'en',
      intlLocale: 'en-US',
      timezone: 'tokyo',
      colorScheme: 'dark',
      fonts: 'f',
      screen: 's',
      devicePixelRatio: '1',
    }
    const previous = { timezone: ['berlin'], colorScheme: ['light'] }
    const request = { ...latest, languages: 'en,de', colorScheme: 'light', fonts: 'g' }
    const settingKeys = (digests: Record<string, string>) =>
      blockingKeys(digests).filter((_, index) => held(blockingGroups[index] ?? []) === 3)
    const found = (stored: string[]) => settingKeys(request).filter((key) => stored.includes(key))
    const latestAndBefore = [
      ...blockingKeys(latest),
      ...blockingKeys({ ...latest, timezone: 'berlin', colorScheme: 'light' }),
    ]
    expect(found(latestAndBefore)).toHaveLength(0)
    expect(found(deviceKeys(latest, previous))).toHaveLength(1)
  })

  it('bound the keys of a device that changed every setting', () => {
    const latest = Object.fromEntries(
      [...new Set(blockingGroups.flat())].map((component) => [component, `${component}-now`]),
    )
    const previous = Object.fromEntries(
      Object.values(settings)
        .flat()
        .map((component) => [component, [`${component}-before`]]),
    )
    const keys = deviceKeys(latest, previous)
    // Its latest and before keys (one for a key of hardware alone, unchanged), and each key of
    // three settings in its six other mixes; the key of all five settings in none.
    const threeSettingKeys = blockingGroups.filter((group) => held(group) === 3).length
    const hardwareKeys = blockingGroups.filter((group) => held(group) === 0).length
    expect(keys).toHaveLength(2 * blockingGroups.length - hardwareKeys + 6 * threeSettingKeys)
    // Its hardware changed too: every key's before differs from its latest, and each key of three
    // settings holds all seven mixes with the latest hardware.
    const everything = Object.fromEntries(
      Object.keys(latest).map((component) => [component, [`${component}-before`]]),
    )
    expect(deviceKeys(latest, everything)).toHaveLength(2 * blockingGroups.length + 7 * threeSettingKeys)
    expect(2 * blockingGroups.length + 7 * threeSettingKeys).toBe(96)
  })

  it('find a device whose hardware re-rendered when one setting changed, back at that setting', () => {
    // The visit that turned dark mode on also re-rendered the canvas (a browser update): back in
    // light mode, the canvas as re-rendered, every key holding the colour scheme still finds it.
    const latest = { canvas: 'c2', webglBasics: 'w', audio: 'a', colorScheme: 'dark', fonts: 'f' }
    const keys = deviceKeys(latest, { canvas: ['c1'], colorScheme: ['light'] })
    const request = blockingKeys({ ...latest, colorScheme: 'light' })
    const holding = blockingGroups.flatMap((group, index) => (group.includes('colorScheme') ? [index] : []))
    for (const index of holding) expect(keys).toContain(request[index])
  })
})
