import { describe, expect, it } from 'vitest'
import { getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { devicePixelRatio } from './device-pixel-ratio'

describe('devicePixelRatio', () => {
  it('is window.devicePixelRatio, fractions and zoom included', () => {
    withMockedWindow({ devicePixelRatio: 2 }, () => expect(devicePixelRatio()).toBe(2))
    withMockedWindow({ devicePixelRatio: 1.25 }, () => expect(devicePixelRatio()).toBe(1.25))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedWindow({ devicePixelRatio: refused }, async () => {
      expect(() => devicePixelRatio()).toThrow('blocked')
      expect(await collectComponent('devicePixelRatio')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })

  it('fails without a window (no browser): collect records a ReferenceError', async () => {
    expect(await collectComponent('devicePixelRatio')).toEqual({
      error: 'ReferenceError: window is not defined',
      duration: expect.any(Number),
    })
  })
})
