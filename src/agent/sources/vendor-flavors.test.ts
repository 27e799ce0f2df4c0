import { describe, expect, it } from 'vitest'
import { getter, withMockedWindow } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { vendorFlavors } from './vendor-flavors'

describe('vendorFlavors', () => {
  it('lists the browser-specific objects present, in a fixed order', () => {
    withMockedWindow({ yandex: {}, chrome: { runtime: {} }, __crWeb: {} }, () =>
      expect(vendorFlavors()).toEqual(['chrome', '__crWeb', 'yandex']),
    )
    withMockedWindow({ safari: { pushNotification: {} }, webkit: { messageHandlers: {} } }, () =>
      expect(vendorFlavors()).toEqual(['safari', 'webkit']),
    )
  })

  it('counts objects only: a function or a string of that name is not a flavour', () => {
    withMockedWindow({ chrome: () => undefined, safari: 'safari' }, () => expect(vendorFlavors()).toEqual([]))
  })

  it('is an empty list in a browser without any (Firefox on the desktop)', () => {
    withMockedWindow({}, () => expect(vendorFlavors()).toEqual([]))
  })

  it('throws where reading a global throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedWindow({ chrome: refused }, async () => {
      expect(() => vendorFlavors()).toThrow('blocked')
      expect(await collectComponent('vendorFlavors')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
