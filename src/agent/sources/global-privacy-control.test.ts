import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { globalPrivacyControl } from './global-privacy-control'

describe('globalPrivacyControl', () => {
  it('is the Sec-GPC preference as navigator.globalPrivacyControl tells it', () => {
    withMockedNavigator({ globalPrivacyControl: true }, () => expect(globalPrivacyControl()).toBe(true))
    withMockedNavigator({ globalPrivacyControl: false }, () => expect(globalPrivacyControl()).toBe(false))
  })

  it('is unsupported in browsers without it (Chrome)', () => {
    withMockedNavigator({ globalPrivacyControl: absent }, () =>
      expect(globalPrivacyControl()).toBe('unsupported'),
    )
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ globalPrivacyControl: refused }, async () => {
      expect(() => globalPrivacyControl()).toThrow('blocked')
      expect(await collectComponent('globalPrivacyControl')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
