import { describe, expect, it } from 'vitest'
import { getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { vendor } from './vendor'

describe('vendor', () => {
  it('is navigator.vendor, unchanged (empty in Firefox)', () => {
    withMockedNavigator({ vendor: 'Google Inc.' }, () => expect(vendor()).toBe('Google Inc.'))
    withMockedNavigator({ vendor: '' }, () => expect(vendor()).toBe(''))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new TypeError('Illegal invocation')
    })
    await withMockedNavigator({ vendor: refused }, async () => {
      expect(() => vendor()).toThrow('Illegal invocation')
      expect(await collectComponent('vendor')).toEqual({
        error: 'TypeError: Illegal invocation',
        duration: expect.any(Number),
      })
    })
  })
})
