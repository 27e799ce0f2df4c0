import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { hardwareConcurrency } from './hardware-concurrency'

describe('hardwareConcurrency', () => {
  it('is the number of logical processors', () => {
    withMockedNavigator({ hardwareConcurrency: 8 }, () => expect(hardwareConcurrency()).toBe(8))
  })

  it('is unsupported where the browser does not tell, or tells 0', () => {
    withMockedNavigator({ hardwareConcurrency: absent }, () =>
      expect(hardwareConcurrency()).toBe('unsupported'),
    )
    withMockedNavigator({ hardwareConcurrency: 0 }, () => expect(hardwareConcurrency()).toBe('unsupported'))
  })

  it('throws where reading it throws, and collect records the error', async () => {
    const refused = getter(() => {
      throw new Error('blocked')
    })
    await withMockedNavigator({ hardwareConcurrency: refused }, async () => {
      expect(() => hardwareConcurrency()).toThrow('blocked')
      expect(await collectComponent('hardwareConcurrency')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
