import { describe, expect, it } from 'vitest'
import {
  getter,
  type MediaFeatures,
  withMockedMedia,
  withMockedWindow,
} from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { colorGamut } from './color-gamut'
import { colorScheme } from './color-scheme'
import { contrast } from './contrast'
import { forcedColors } from './forced-colors'
import { hdr } from './hdr'
import { hoverPointer } from './hover-pointer'
import type { SourceName } from './index'
import { invertedColors } from './inverted-colors'
import { monochrome } from './monochrome'
import { reducedMotion } from './reduced-motion'
import { reducedTransparency } from './reduced-transparency'

// Sources that ask CSS media queries. Each names the first of its values that matches, in the order
// listed (the widest gamut first: a P3 screen also matches srgb), or 'unsupported' where the browser
// does not know the feature and so matches none.

const read = <Value>(features: MediaFeatures, source: () => Value) => withMockedMedia(features, source)

/** What every media-query source shares: no window.matchMedia, or one that throws, fails collection. */
function failsWithoutMatchMedia(name: SourceName, source: () => unknown) {
  it('throws without window.matchMedia, and collect records the error', async () => {
    await withMockedWindow({}, async () => {
      expect(() => source()).toThrow(TypeError)
      expect(await collectComponent(name)).toEqual({
        error: 'TypeError: window.matchMedia is not a function',
        duration: expect.any(Number),
      })
    })
  })

  it('throws where matchMedia throws', () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    withMockedWindow({ matchMedia: refused }, () => expect(() => source()).toThrow('blocked'))
  })
}

describe('colorGamut', () => {
  it('is the widest gamut the screen covers (a wide-gamut screen matches the narrower ones too)', () => {
    expect(read({ 'color-gamut': ['srgb', 'p3'] }, colorGamut)).toBe('p3')
    expect(read({ 'color-gamut': 'srgb' }, colorGamut)).toBe('srgb')
    expect(read({ 'color-gamut': ['srgb', 'p3', 'rec2020'] }, colorGamut)).toBe('rec2020')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, colorGamut)).toBe('unsupported')
  })

  failsWithoutMatchMedia('colorGamut', colorGamut)
})

describe('colorScheme', () => {
  it('is the preferred colour scheme', () => {
    expect(read({ 'prefers-color-scheme': 'dark' }, colorScheme)).toBe('dark')
    expect(read({ 'prefers-color-scheme': 'light' }, colorScheme)).toBe('light')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, colorScheme)).toBe('unsupported')
  })

  failsWithoutMatchMedia('colorScheme', colorScheme)
})

describe('contrast', () => {
  it('is the preferred contrast', () => {
    expect(read({ 'prefers-contrast': 'no-preference' }, contrast)).toBe('no-preference')
    expect(read({ 'prefers-contrast': 'more' }, contrast)).toBe('more')
    expect(read({ 'prefers-contrast': 'less' }, contrast)).toBe('less')
    expect(read({ 'prefers-contrast': 'custom' }, contrast)).toBe('custom')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, contrast)).toBe('unsupported')
  })

  failsWithoutMatchMedia('contrast', contrast)
})

describe('forcedColors', () => {
  it('is whether forced colours (Windows high contrast) are on', () => {
    expect(read({ 'forced-colors': 'none' }, forcedColors)).toBe('none')
    expect(read({ 'forced-colors': 'active' }, forcedColors)).toBe('active')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, forcedColors)).toBe('unsupported')
  })

  failsWithoutMatchMedia('forcedColors', forcedColors)
})

describe('hdr', () => {
  it('is the dynamic range the screen shows', () => {
    expect(read({ 'dynamic-range': 'high' }, hdr)).toBe('high')
    expect(read({ 'dynamic-range': 'standard' }, hdr)).toBe('standard')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, hdr)).toBe('unsupported')
  })

  failsWithoutMatchMedia('hdr', hdr)
})

describe('hoverPointer', () => {
  it('is the primary input’s hover and pointer, then any input’s', () => {
    const laptopWithTouchscreen = {
      hover: 'hover',
      pointer: 'fine',
      'any-hover': 'hover',
      'any-pointer': 'coarse',
    }
    expect(read(laptopWithTouchscreen, hoverPointer)).toEqual(['hover', 'fine', 'hover', 'coarse'])
    const phone = { hover: 'none', pointer: 'coarse', 'any-hover': 'none', 'any-pointer': 'coarse' }
    expect(read(phone, hoverPointer)).toEqual(['none', 'coarse', 'none', 'coarse'])
  })

  it('is unsupported for each feature the browser does not know', () => {
    expect(read({ pointer: 'fine' }, hoverPointer)).toEqual([
      'unsupported',
      'fine',
      'unsupported',
      'unsupported',
    ])
  })

  failsWithoutMatchMedia('hoverPointer', hoverPointer)
})

describe('invertedColors', () => {
  it('is whether the system inverts colours', () => {
    expect(read({ 'inverted-colors': 'none' }, invertedColors)).toBe('none')
    expect(read({ 'inverted-colors': 'inverted' }, invertedColors)).toBe('inverted')
  })

  it('is unsupported where the feature is unknown (every browser but Safari)', () => {
    expect(read({}, invertedColors)).toBe('unsupported')
  })

  failsWithoutMatchMedia('invertedColors', invertedColors)
})

describe('monochrome', () => {
  it('is the bits per pixel of a monochrome display, 0 for colour (the first that matches)', () => {
    expect(read({ monochrome: 0 }, monochrome)).toBe(0)
    expect(read({ monochrome: 8 }, monochrome)).toBe(8)
    expect(read({ monochrome: 16 }, monochrome)).toBe(16)
    expect(read({ monochrome: [4, 2] }, monochrome)).toBe(2)
  })

  it('is -1, not unsupported, where no value up to 16 matches', () => {
    expect(read({}, monochrome)).toBe(-1)
    expect(read({ monochrome: 24 }, monochrome)).toBe(-1)
  })

  failsWithoutMatchMedia('monochrome', monochrome)
})

describe('reducedMotion', () => {
  it('is the motion preference', () => {
    expect(read({ 'prefers-reduced-motion': 'no-preference' }, reducedMotion)).toBe('no-preference')
    expect(read({ 'prefers-reduced-motion': 'reduce' }, reducedMotion)).toBe('reduce')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, reducedMotion)).toBe('unsupported')
  })

  failsWithoutMatchMedia('reducedMotion', reducedMotion)
})

describe('reducedTransparency', () => {
  it('is the transparency preference', () => {
    expect(read({ 'prefers-reduced-transparency': 'no-preference' }, reducedTransparency)).toBe(
      'no-preference',
    )
    expect(read({ 'prefers-reduced-transparency': 'reduce' }, reducedTransparency)).toBe('reduce')
  })

  it('is unsupported where the feature is unknown', () => {
    expect(read({}, reducedTransparency)).toBe('unsupported')
  })

  failsWithoutMatchMedia('reducedTransparency', reducedTransparency)
})
