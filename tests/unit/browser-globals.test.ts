import { describe, expect, it } from 'vitest'
import {
  absent,
  fakeMatchMedia,
  getter,
  withIntlDefaults,
  withMockedGlobals,
  withMockedMedia,
  withMockedNavigator,
  withMockedProperties,
  withMockedScreen,
  withMockedWindow,
} from '../support/browser-globals'

const globals = globalThis as Record<string, unknown>

/** An object with one of each kind of property the helpers must put back as it was. */
function specimen() {
  const target: Record<string, unknown> = { plain: 'original' }
  Object.defineProperty(target, 'computed', { get: () => 'from the getter', configurable: true })
  return target
}

/** Every own property's descriptor (a property deleted and put back may change place in key order). */
function snapshot(target: object) {
  return Object.getOwnPropertyDescriptors(target)
}

describe('withMockedProperties', () => {
  it('replaces values and getters, adds and removes properties, for the callback only', () => {
    const target = specimen()
    const before = snapshot(target)
    const seen = withMockedProperties(
      target,
      { plain: 'mocked', computed: 42, added: true, missing: absent },
      () => ({ ...target, hasPlain: 'plain' in target }),
    )
    expect(seen).toEqual({ plain: 'mocked', computed: 42, added: true, hasPlain: true })
    expect(snapshot(target)).toEqual(before)
    expect(target.computed).toBe('from the getter')
    expect('added' in target).toBe(false)
  })

  it('makes a property absent and puts it back', () => {
    const target = specimen()
    const before = snapshot(target)
    withMockedProperties(target, { plain: absent, computed: absent }, () => {
      expect('plain' in target).toBe(false)
      expect('computed' in target).toBe(false)
    })
    expect(snapshot(target)).toEqual(before)
  })

  it('installs a getter that runs on every read', () => {
    const target = specimen()
    let reads = 0
    withMockedProperties(target, { plain: getter(() => ++reads) }, () => {
      expect([target.plain, target.plain]).toEqual([1, 2])
    })
    expect(target.plain).toBe('original')
  })

  it('restores after the callback throws, and lets the error through', () => {
    const target = specimen()
    const before = snapshot(target)
    expect(() =>
      withMockedProperties(target, { plain: 'mocked', added: 1, computed: absent }, () => {
        throw new Error('the test failed')
      }),
    ).toThrow('the test failed')
    expect(snapshot(target)).toEqual(before)
  })

  it('restores after an async callback settles, not before', async () => {
    const target = specimen()
    const before = snapshot(target)
    const pending = withMockedProperties(target, { plain: 'mocked' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return target.plain
    })
    expect(target.plain).toBe('mocked')
    expect(await pending).toBe('mocked')
    expect(snapshot(target)).toEqual(before)

    await expect(
      withMockedProperties(target, { added: 1 }, async () => {
        await Promise.resolve()
        throw new Error('rejected')
      }),
    ).rejects.toThrow('rejected')
    expect(snapshot(target)).toEqual(before)
  })

  it('refuses to fake the absence of an inherited property, and undoes what it had already done', () => {
    const target = Object.assign(Object.create({ inherited: 1 }), { own: 'original' })
    expect(() => withMockedProperties(target, { own: 'mocked', inherited: absent }, () => 'never')).toThrow(
      /inherited: mock it on the prototype/,
    )
    expect(target.own).toBe('original')
  })

  it('undoes earlier replacements when a later one is impossible', () => {
    const target = Object.defineProperty({ own: 'original' }, 'fixed', { value: 1, configurable: false })
    expect(() => withMockedProperties(target, { own: 'mocked', fixed: 2 }, () => 'never')).toThrow(TypeError)
    expect(target.own).toBe('original')
  })

  it('nests: an inner mock is undone first, then the outer one', () => {
    const target = specimen()
    withMockedProperties(target, { plain: 'outer' }, () => {
      withMockedProperties(target, { plain: 'inner' }, () => expect(target.plain).toBe('inner'))
      expect(target.plain).toBe('outer')
    })
    expect(target.plain).toBe('original')
  })
})

describe('the browser globals, in Node', () => {
  it('are created for the callback and removed after, even on a throw', () => {
    for (const name of ['window', 'navigator', 'document', 'screen', 'matchMedia'])
      expect(name in globalThis, name).toBe(false)
    expect(() =>
      withMockedNavigator({ userAgent: 'Mozilla/5.0' }, () =>
        withMockedScreen({ width: 1920 }, () => {
          expect(globals.navigator).toEqual({ userAgent: 'Mozilla/5.0' })
          expect(globals.window).toBe(globalThis)
          expect(window.screen.width).toBe(1920)
          throw new Error('the test failed')
        }),
      ),
    ).toThrow('the test failed')
    for (const name of ['window', 'navigator', 'screen']) expect(name in globalThis, name).toBe(false)
  })

  it('keep an existing global and mock only its properties', () => {
    const intl = globalThis.Intl
    const before = snapshot(intl)
    withMockedProperties(Intl, { DateTimeFormat: absent }, () => {
      expect(globalThis.Intl).toBe(intl)
      expect('DateTimeFormat' in Intl).toBe(false)
    })
    expect(snapshot(intl)).toEqual(before)
    withMockedGlobals({ Intl: absent }, () => expect(typeof Intl).toBe('undefined'))
    expect(globalThis.Intl).toBe(intl)
  })

  it('make window the global object, as in a browser', () => {
    withMockedWindow({ devicePixelRatio: 2 }, () => {
      expect(window.devicePixelRatio).toBe(2)
      expect(globals.devicePixelRatio).toBe(2)
    })
    expect('devicePixelRatio' in globalThis).toBe(false)
  })
})

describe('fakeMatchMedia', () => {
  it('matches a listed feature’s value only', () => {
    const matchMedia = fakeMatchMedia({ 'prefers-color-scheme': 'dark', monochrome: 0 })
    expect(matchMedia('(prefers-color-scheme: dark)').matches).toBe(true)
    expect(matchMedia('(prefers-color-scheme: light)').matches).toBe(false)
    expect(matchMedia('(monochrome: 0)').matches).toBe(true)
    expect(matchMedia('(hover: hover)').matches).toBe(false)
    expect(() => matchMedia('screen and (min-width: 10px)')).toThrow(SyntaxError)
    const wideGamut = fakeMatchMedia({ 'color-gamut': ['srgb', 'p3'] })
    expect(['srgb', 'p3', 'rec2020'].map((gamut) => wideGamut(`(color-gamut: ${gamut})`).matches)).toEqual([
      true,
      true,
      false,
    ])
  })

  it('is window.matchMedia for the callback', () => {
    withMockedMedia({ 'forced-colors': 'active' }, () => {
      expect(window.matchMedia('(forced-colors: active)').matches).toBe(true)
    })
    expect('matchMedia' in globalThis).toBe(false)
  })
})

describe('withIntlDefaults', () => {
  it('changes what Intl falls back to, with or without new, and puts the originals back', () => {
    const { DateTimeFormat, NumberFormat } = Intl
    withIntlDefaults({ locale: 'de-DE', timeZone: 'Asia/Tokyo' }, () => {
      const called = Intl.DateTimeFormat().resolvedOptions()
      const constructed = new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions()
      expect([called.locale, called.timeZone]).toEqual(['de-DE', 'Asia/Tokyo'])
      expect([constructed.locale, constructed.timeZone]).toEqual(['de-DE', 'Asia/Tokyo'])
      expect(new Intl.DateTimeFormat('en-US').resolvedOptions().locale).toBe('en-US')
      expect(new Intl.NumberFormat().format(1234.5)).toBe('1.234,5')
    })
    expect(Intl.DateTimeFormat).toBe(DateTimeFormat)
    expect(Intl.NumberFormat).toBe(NumberFormat)
  })
})
