import { describe, expect, it } from 'vitest'
import { getter, withMockedScreen, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { availableScreen } from './available-screen'

describe('availableScreen', () => {
  it('is the area left by the task bar: width, height, top and left', () => {
    withMockedScreen({ width: 2560, height: 1440, availWidth: 2560, availHeight: 1400, availTop: 40 }, () => {
      expect(availableScreen()).toEqual([2560, 1400, 40, 0])
    })
    withMockedScreen({ availWidth: 1440, availHeight: 875, availTop: 25, availLeft: 0 }, () =>
      expect(availableScreen()).toEqual([1440, 875, 25, 0]),
    )
  })

  it('takes a missing top and left (not in every browser) as 0', () => {
    withMockedScreen({ availWidth: 1366, availHeight: 728 }, () =>
      expect(availableScreen()).toEqual([1366, 728, 0, 0]),
    )
  })

  it('throws without window.screen, and collect records the error', async () => {
    await withMockedWindow({}, async () => {
      expect(() => availableScreen()).toThrow(TypeError)
      expect(await collectComponent('availableScreen')).toEqual({
        error: expect.stringMatching(/^TypeError: /),
        duration: expect.any(Number),
      })
    })
  })

  it('throws where reading a size throws', () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    withMockedScreen({ availWidth: refused }, () => expect(() => availableScreen()).toThrow('blocked'))
  })
})
