import { describe, expect, it } from 'vitest'
import { getter, withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { mathQuirks } from './math-quirks'

// The functions whose last bits differ between engines and CPUs, in the order the value lists them.
const functions = [
  'acos',
  'acosh',
  'asinh',
  'atanh',
  'atan',
  'sin',
  'sinh',
  'cos',
  'cosh',
  'tan',
  'tanh',
  'exp',
  'expm1',
  'log1p',
  'cbrt',
  'pow',
] as const

describe('mathQuirks', () => {
  it('lists one result per function, in a fixed order', () => {
    const indexed = Object.fromEntries(functions.map((name, index) => [name, () => index]))
    const value = withMockedProperties(Math, indexed, () => mathQuirks())
    expect(value).toEqual(functions.map((_, index) => index))
  })

  it('is sixteen finite numbers, the same on every call in one engine', () => {
    const value = mathQuirks()
    expect(value).toHaveLength(16)
    for (const result of value) expect(Number.isFinite(result)).toBe(true)
    expect(mathQuirks()).toEqual(value)
    // The few inputs whose exact answer is known agree in every engine.
    expect(value[2]).toBeCloseTo(Math.log(1 + Math.SQRT2), 15)
    expect(value[11]).toBe(Math.E)
  })

  it('throws where a patched Math function throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedProperties(Math, { tan: refused }, async () => {
      expect(() => mathQuirks()).toThrow('blocked')
      expect(await collectComponent('mathQuirks')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
