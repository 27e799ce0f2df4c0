import { describe, expect, it } from 'vitest'
import { withMockedProperties } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { devtoolsProtocol } from './devtools-protocol'

describe('devtoolsProtocol', () => {
  it('is true where logging an error reads its stack (the DevTools protocol serialises it)', () => {
    const serialising = (value: unknown) => (value instanceof Error ? value.stack : String(value))
    expect(withMockedProperties(console, { debug: serialising }, () => devtoolsProtocol())).toBe(true)
  })

  it('is false where nothing reads what is logged (no DevTools client attached)', () => {
    expect(withMockedProperties(console, { debug: () => undefined }, () => devtoolsProtocol())).toBe(false)
  })

  it('throws where console.debug throws, and collect records the error', async () => {
    const refusing = () => {
      throw new Error('blocked')
    }
    await withMockedProperties(console, { debug: refusing }, async () => {
      expect(() => devtoolsProtocol()).toThrow('blocked')
      expect(await collectComponent('devtoolsProtocol')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
