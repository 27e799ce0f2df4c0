import { describe, expect, it } from 'vitest'
import { collectComponent } from '../../../tests/support/collect-component'
import { architecture } from './architecture'

// The NaN that ∞ − ∞ produces is the CPU's "default NaN": x86 sets its sign bit, ARM does not.
const expected: Record<string, number> = { x64: 255, ia32: 255, arm64: 127, arm: 127 }

describe('architecture', () => {
  it('is the top byte of a computed NaN: 255 on x86, 127 on ARM', () => {
    const known = expected[process.arch]
    if (known === undefined) expect([127, 255]).toContain(architecture())
    else expect(architecture()).toBe(known)
  })

  it('needs no browser API, so collect records a value wherever JavaScript runs', async () => {
    expect(await collectComponent('architecture')).toEqual({
      value: architecture(),
      duration: expect.any(Number),
    })
  })
})
