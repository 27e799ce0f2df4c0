import { describe, expect, it } from 'vitest'
import { getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { cookiesEnabled } from './cookies-enabled'

describe('cookiesEnabled', () => {
  it('is navigator.cookieEnabled', () => {
    withMockedNavigator({ cookieEnabled: true }, () => expect(cookiesEnabled()).toBe(true))
    withMockedNavigator({ cookieEnabled: false }, () => expect(cookiesEnabled()).toBe(false))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ cookieEnabled: refused }, async () => {
      expect(() => cookiesEnabled()).toThrow('blocked')
      expect(await collectComponent('cookiesEnabled')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
