import { describe, expect, it } from 'vitest'
import { getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { languages } from './languages'

describe('languages', () => {
  it('is the preference list, in order, as a copy', () => {
    const preferred = Object.freeze(['de-CH', 'de', 'en-US', 'en'])
    withMockedNavigator({ languages: preferred, language: 'de-CH' }, () => {
      const value = languages()
      expect(value).toEqual(['de-CH', 'de', 'en-US', 'en'])
      expect(value).not.toBe(preferred)
    })
  })

  it('falls back to navigator.language where the list is empty or missing', () => {
    withMockedNavigator({ languages: [], language: 'fr-FR' }, () => expect(languages()).toEqual(['fr-FR']))
    withMockedNavigator({ language: 'ja' }, () => expect(languages()).toEqual(['ja']))
  })

  it('throws where reading the list throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ languages: refused, language: 'en' }, async () => {
      expect(() => languages()).toThrow('blocked')
      expect(await collectComponent('languages')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
