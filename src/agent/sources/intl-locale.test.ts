import { describe, expect, it } from 'vitest'
import { withIntlDefaults, withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { intlLocale } from './intl-locale'

describe('intlLocale', () => {
  it('is how Intl formats by default: locale, calendar, digits, hour cycle and a sample number', () => {
    withIntlDefaults({ locale: 'de-DE' }, () =>
      expect(intlLocale()).toEqual({
        locale: 'de-DE',
        calendar: 'gregory',
        numberingSystem: 'latn',
        hourCycle: 'h23',
        number: '1.234.567,891',
      }),
    )
    withIntlDefaults({ locale: 'en-US' }, () =>
      expect(intlLocale()).toMatchObject({ hourCycle: 'h12', number: '1,234,567.891' }),
    )
  })

  it('tells apart locales that share a language list: digits and calendars', () => {
    withIntlDefaults({ locale: 'ar-EG' }, () =>
      expect(intlLocale()).toMatchObject({ numberingSystem: 'arab', number: '١٬٢٣٤٬٥٦٧٫٨٩١' }),
    )
    withIntlDefaults({ locale: 'th-TH-u-ca-buddhist' }, () =>
      expect(intlLocale()).toMatchObject({ calendar: 'buddhist' }),
    )
  })

  it('has a null hour cycle where Intl resolves none', () => {
    const { DateTimeFormat } = Intl
    function NoHourCycle(locales?: string, options?: Intl.DateTimeFormatOptions) {
      const format = new DateTimeFormat(locales ?? 'en-GB', options)
      return { resolvedOptions: () => ({ ...format.resolvedOptions(), hourCycle: undefined }) }
    }
    withMockedProperties(Intl, { DateTimeFormat: NoHourCycle }, () =>
      expect(intlLocale().hourCycle).toBeNull(),
    )
  })

  it('throws where Intl throws, and collect records the error', async () => {
    function Refusing() {
      throw new RangeError('Incorrect locale information provided')
    }
    await withMockedProperties(Intl, { NumberFormat: Refusing }, async () => {
      expect(() => intlLocale()).toThrow(RangeError)
      expect(await collectComponent('intlLocale')).toEqual({
        error: 'RangeError: Incorrect locale information provided',
        duration: expect.any(Number),
      })
    })
  })
})
