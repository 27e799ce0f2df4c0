import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { deviceMemory } from './device-memory'

describe('deviceMemory', () => {
  it('is the rounded memory size in GiB that Chromium reports', () => {
    withMockedNavigator({ deviceMemory: 8 }, () => expect(deviceMemory()).toBe(8))
    withMockedNavigator({ deviceMemory: 0.5 }, () => expect(deviceMemory()).toBe(0.5))
  })

  it('is unsupported in browsers without it (Firefox, Safari)', () => {
    withMockedNavigator({ deviceMemory: absent }, () => expect(deviceMemory()).toBe('unsupported'))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ deviceMemory: refused }, async () => {
      expect(() => deviceMemory()).toThrow('blocked')
      expect(await collectComponent('deviceMemory')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
