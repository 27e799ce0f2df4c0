import { describe, expect, it } from 'vitest'
import {
  absent,
  getter,
  type Replacements,
  withMockedProperties,
} from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { jsFeatures } from './js-features'

const fn = () => undefined
// Each feature in bitmap order: where it lives, its name, and what it is where present.
const features: [owner: object, name: string, present: unknown][] = [
  [Array.prototype, 'findLast', fn],
  [Array.prototype, 'toSorted', fn],
  [Object, 'groupBy', fn],
  [Promise, 'withResolvers', fn],
  [Set.prototype, 'union', fn],
  [globalThis, 'Iterator', fn],
  [RegExp, 'escape', fn],
  [Math, 'sumPrecise', fn],
  [Error, 'isError', fn],
  [Array, 'fromAsync', fn],
  [globalThis, 'structuredClone', fn],
  [globalThis, 'Temporal', {}],
  [globalThis, 'CompressionStream', fn],
  [globalThis, 'Sanitizer', fn],
  [globalThis, 'ViewTransition', fn],
  [globalThis, 'CSSScopeRule', fn],
  [globalThis, 'Scheduler', fn],
  [globalThis, 'NavigateEvent', fn],
  [globalThis, 'TrustedHTML', fn],
  [globalThis, 'SharedArrayBuffer', fn],
  [globalThis, 'WebAssembly', {}],
  [globalThis, 'BarcodeDetector', fn],
  [globalThis, 'EyeDropper', fn],
  [globalThis, 'HID', fn],
]

/** jsFeatures() in an engine that has exactly the features whose indexes are given. */
function bitmapWith(present: number[]): string {
  const byOwner = new Map<object, Replacements>()
  features.forEach(([owner, name, value], index) => {
    const replacements = byOwner.get(owner) ?? {}
    replacements[name] = present.includes(index) ? value : absent
    byOwner.set(owner, replacements)
  })
  const run = [...byOwner].reduce<() => string>(
    (inner, [owner, replacements]) =>
      () =>
        withMockedProperties(owner, replacements, inner),
    () => jsFeatures(),
  )
  return run()
}

describe('jsFeatures', () => {
  it('is one digit per feature, in a fixed order: 1 present, 0 missing', () => {
    expect(bitmapWith([])).toBe('0'.repeat(24))
    expect(bitmapWith(features.map((_, index) => index))).toBe('1'.repeat(24))
    features.forEach(([, name], index) => {
      const expected = `${'0'.repeat(index)}1${'0'.repeat(23 - index)}`
      expect(bitmapWith([index]), name).toBe(expected)
    })
  })

  it('checks the kind, not only the name: a Temporal that is a function counts as missing', () => {
    const temporal = features.findIndex(([, name]) => name === 'Temporal')
    expect(withMockedProperties(globalThis, { Temporal: fn }, () => jsFeatures())[temporal]).toBe('0')
  })

  it('is a 24-digit bitmap in this engine', () => {
    expect(jsFeatures()).toMatch(/^[01]{24}$/)
  })

  it('throws where reading a global throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedProperties(globalThis, { EyeDropper: refused }, async () => {
      expect(() => jsFeatures()).toThrow('blocked')
      expect(await collectComponent('jsFeatures')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
