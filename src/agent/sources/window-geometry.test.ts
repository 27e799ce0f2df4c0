import { describe, expect, it } from 'vitest'
import { getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { windowGeometry } from './window-geometry'

const desktop = {
  outerWidth: 1280,
  outerHeight: 800,
  innerWidth: 1265,
  innerHeight: 689,
  screenX: 80,
  screenY: 25,
}

describe('windowGeometry', () => {
  it('is the outer and inner sizes, the position and the pinch-zoom scale (two decimals)', () => {
    withMockedWindow({ ...desktop, visualViewport: { scale: 1.3333333 } }, () =>
      expect(windowGeometry()).toEqual({
        outer: [1280, 800],
        inner: [1265, 689],
        position: [80, 25],
        viewport: 1.33,
      }),
    )
  })

  it('keeps the impossible combinations automation leaves: an outer window of 0 × 0', () => {
    withMockedWindow(
      { ...desktop, outerWidth: 0, outerHeight: 0, screenX: 0, screenY: 0, visualViewport: { scale: 1 } },
      () => expect(windowGeometry()).toMatchObject({ outer: [0, 0], position: [0, 0], viewport: 1 }),
    )
  })

  it('has no viewport scale without the Visual Viewport API', () => {
    withMockedWindow(desktop, () => expect(windowGeometry().viewport).toBeNull())
  })

  it('throws where reading a size throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedWindow({ ...desktop, outerWidth: refused }, async () => {
      expect(() => windowGeometry()).toThrow('blocked')
      expect(await collectComponent('windowGeometry')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
