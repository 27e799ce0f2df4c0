import { describe, expect, it } from 'vitest'
import { getter, withMockedScreen, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { colorDepth } from './color-depth'

describe('colorDepth', () => {
  it('is the screen’s colour depth and pixel depth', () => {
    withMockedScreen({ colorDepth: 24, pixelDepth: 24 }, () => expect(colorDepth()).toEqual([24, 24]))
    withMockedScreen({ colorDepth: 30, pixelDepth: 30 }, () => expect(colorDepth()).toEqual([30, 30]))
  })

  it('throws without window.screen, and collect records the error', async () => {
    await withMockedWindow({}, async () => {
      expect(() => colorDepth()).toThrow(TypeError)
      expect(await collectComponent('colorDepth')).toEqual({
        error: expect.stringMatching(/^TypeError: /),
        duration: expect.any(Number),
      })
    })
  })

  it('throws where reading a depth throws', () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    withMockedScreen({ colorDepth: refused, pixelDepth: 24 }, () =>
      expect(() => colorDepth()).toThrow('blocked'),
    )
  })
})
