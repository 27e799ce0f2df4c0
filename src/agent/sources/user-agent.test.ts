import { describe, expect, it } from 'vitest'
import { getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { userAgent } from './user-agent'

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36'

describe('userAgent', () => {
  it('is the user agent string, unchanged', () => {
    withMockedNavigator({ userAgent: chrome }, () => expect(userAgent()).toBe(chrome))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new TypeError('Illegal invocation')
    })
    await withMockedNavigator({ userAgent: refused }, async () => {
      expect(() => userAgent()).toThrow('Illegal invocation')
      expect(await collectComponent('userAgent')).toEqual({
        error: 'TypeError: Illegal invocation',
        duration: expect.any(Number),
      })
    })
  })

  it('fails without a navigator (no browser): collect records a ReferenceError', async () => {
    expect(await collectComponent('userAgent')).toEqual({
      error: 'ReferenceError: navigator is not defined',
      duration: expect.any(Number),
    })
  })
})
