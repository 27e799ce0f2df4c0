import { describe, expect, it } from 'vitest'
import {
  absent,
  getter,
  withMockedGlobals,
  withMockedNavigator,
} from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { audioLatency, wakeAudioOutput } from './audio-latency'

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

  // Started early in the collection (startAfter), so the context this source opens comes quickly.
  describe('wakeAudioOutput', () => {
    it('asks for the device list once and waits for nothing: the page goes on at once', () => {
      let asked = 0
      const enumerateDevices = () => {
        asked++
        return new Promise(() => undefined)
      }
      withMockedNavigator({ mediaDevices: { enumerateDevices } }, () => {
        expect(wakeAudioOutput()).toBeUndefined()
      })
      expect(asked).toBe(1)
    })

    it('swallows a refused list, and does nothing where there are no media devices', async () => {
      const rejections: unknown[] = []
      const onRejection = (reason: unknown) => rejections.push(reason)
      process.on('unhandledRejection', onRejection)
      try {
        withMockedNavigator(
          { mediaDevices: { enumerateDevices: () => Promise.reject(new Error('refused')) } },
          () => wakeAudioOutput(),
        )
        // An insecure page has no navigator.mediaDevices; an odd browser may throw reading it.
        withMockedNavigator({ mediaDevices: absent }, () => expect(() => wakeAudioOutput()).not.toThrow())
        withMockedNavigator(
          {
            mediaDevices: getter(() => {
              throw new Error('blocked')
            }),
          },
          () => expect(() => wakeAudioOutput()).not.toThrow(),
        )
        await new Promise((resolve) => setTimeout(resolve, 10))
        expect(rejections).toEqual([])
      } finally {
        process.off('unhandledRejection', onRejection)
      }
    })
  })
})
