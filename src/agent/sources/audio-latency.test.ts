import { describe, expect, it } from 'vitest'
import { absent, withMockedGlobals } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { audioLatency } from './audio-latency'

/** An AudioContext with this output device; it counts the contexts opened and closed. */
function fakeAudioContext(device: { baseLatency?: number; sampleRate: number }) {
  const counts = { opened: 0, closed: 0 }
  class AudioContext {
    baseLatency = device.baseLatency
    sampleRate = device.sampleRate
    constructor() {
      counts.opened++
    }
    async close() {
      counts.closed++
    }
  }
  return { AudioContext, counts }
}

describe('audioLatency', () => {
  it('is the output’s base latency (to the microsecond) and sample rate, and closes its context', () => {
    const { AudioContext, counts } = fakeAudioContext({ baseLatency: 0.010_666_666_6, sampleRate: 48_000 })
    withMockedGlobals({ AudioContext }, () =>
      expect(audioLatency()).toEqual({ baseLatency: 0.010_667, sampleRate: 48_000 }),
    )
    expect(counts).toEqual({ opened: 1, closed: 1 })
  })

  it('has a base latency of -1 where the browser does not report one (older Safari)', () => {
    const { AudioContext } = fakeAudioContext({ sampleRate: 44_100 })
    withMockedGlobals({ AudioContext }, () =>
      expect(audioLatency()).toEqual({ baseLatency: -1, sampleRate: 44_100 }),
    )
  })

  it('is unsupported without the Web Audio API', () => {
    withMockedGlobals({ AudioContext: absent }, () => expect(audioLatency()).toBe('unsupported'))
  })

  it('throws where no context can be opened, and collect records the error', async () => {
    class AudioContext {
      constructor() {
        throw new DOMException(
          'The number of hardware contexts provided (6) is greater than or equal to the maximum bound (6).',
          'NotSupportedError',
        )
      }
    }
    await withMockedGlobals({ AudioContext }, async () => {
      expect(() => audioLatency()).toThrow('maximum bound')
      expect(await collectComponent('audioLatency')).toEqual({
        error: expect.stringMatching(/^NotSupportedError: The number of hardware contexts/),
        duration: expect.any(Number),
      })
    })
  })
})
