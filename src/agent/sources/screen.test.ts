import { describe, expect, it } from 'vitest'
import { getter, withMockedScreen, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { screen } from './screen'

describe('screen', () => {
  it('is the screen’s width and height in CSS pixels', () => {
    withMockedScreen({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040 }, () =>
      expect(screen()).toEqual([1920, 1080]),
    )
  })

  it('throws without window.screen, and collect records the error', async () => {
    await withMockedWindow({}, async () => {
      expect(() => screen()).toThrow(TypeError)
      expect(await collectComponent('screen')).toEqual({
        error: expect.stringMatching(/^TypeError: Cannot read properties of undefined \(reading 'width'\)/),
        duration: expect.any(Number),
      })
    })
  })

  it('throws where reading a size throws', () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    withMockedScreen({ width: refused, height: 1080 }, () => expect(() => screen()).toThrow('blocked'))
  })
})
