import { describe, expect, it } from 'vitest'
import { getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { platform } from './platform'

describe('platform', () => {
  it('is navigator.platform, unchanged', () => {
    withMockedNavigator({ platform: 'Win32' }, () => expect(platform()).toBe('Win32'))
    withMockedNavigator({ platform: '' }, () => expect(platform()).toBe(''))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new TypeError('Illegal invocation')
    })
    await withMockedNavigator({ platform: refused }, async () => {
      expect(() => platform()).toThrow('Illegal invocation')
      expect(await collectComponent('platform')).toEqual({
        error: 'TypeError: Illegal invocation',
        duration: expect.any(Number),
      })
    })
  })
})
