import { describe, expect, it } from 'vitest'
import { absent, getter, withMockedNavigator } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { connection } from './connection'

describe('connection', () => {
  it('is the network hints Chromium gives: round-trip time, effective type, data saver', () => {
    withMockedNavigator(
      { connection: { rtt: 50, effectiveType: '4g', saveData: false, downlink: 10, type: 'wifi' } },
      () => expect(connection()).toEqual({ rtt: 50, type: '4g', saveData: false }),
    )
  })

  it('keeps a zero round-trip time (typical of headless browsers) and fills missing hints', () => {
    withMockedNavigator({ connection: { rtt: 0 } }, () =>
      expect(connection()).toEqual({ rtt: 0, type: null, saveData: false }),
    )
  })

  it('is unsupported without the Network Information API (Firefox, Safari)', () => {
    withMockedNavigator({ connection: absent }, () => expect(connection()).toBe('unsupported'))
  })

  it('throws where reading a hint throws, and collect records the error', async () => {
    const info = {
      get rtt(): number {
        throw new Error('blocked')
      },
    }
    await withMockedNavigator({ connection: getter(() => info) }, async () => {
      expect(() => connection()).toThrow('blocked')
      expect(await collectComponent('connection')).toEqual({
        error: 'Error: blocked',
        duration: expect.any(Number),
      })
    })
  })
})
