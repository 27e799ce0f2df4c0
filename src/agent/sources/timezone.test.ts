import { describe, expect, it } from 'vitest'
import { withIntlDefaults, withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { timezone } from './timezone'

describe('timezone', () => {
  it('is the IANA time zone the browser formats dates in', () => {
    withIntlDefaults({ locale: 'de-CH', timeZone: 'Europe/Zurich' }, () =>
      expect(timezone()).toBe('Europe/Zurich'),
    )
    withIntlDefaults({ locale: 'en-US', timeZone: 'America/Los_Angeles' }, () =>
      expect(timezone()).toBe('America/Los_Angeles'),
    )
  })

  it('is unsupported where Intl resolves no time zone (older engines)', () => {
    function NoTimeZone() {
      return { resolvedOptions: () => ({ locale: 'en-US', calendar: 'gregory' }) }
    }
    withMockedProperties(Intl, { DateTimeFormat: NoTimeZone }, () => expect(timezone()).toBe('unsupported'))
  })

  it('throws where Intl throws, and collect records the error', async () => {
    function Refusing() {
      throw new RangeError('Incorrect locale information provided')
    }
    await withMockedProperties(Intl, { DateTimeFormat: Refusing }, async () => {
      expect(() => timezone()).toThrow(RangeError)
      expect(await collectComponent('timezone')).toEqual({
        error: 'RangeError: Incorrect locale information provided',
        duration: expect.any(Number),
      })
    })
  })
})
