import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { webdriver } from './webdriver'

describe('webdriver', () => {
  it('is navigator.webdriver: true under automation, false otherwise', () => {
    withMockedNavigator({ webdriver: true }, () => expect(webdriver()).toBe(true))
    withMockedNavigator({ webdriver: false }, () => expect(webdriver()).toBe(false))
  })

  it('is unsupported where the property is missing (deleted by a stealth script, or an old browser)', () => {
    withMockedNavigator({ webdriver: absent }, () => expect(webdriver()).toBe('unsupported'))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ webdriver: refused }, async () => {
      expect(() => webdriver()).toThrow('blocked')
      expect(await collectComponent('webdriver')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
