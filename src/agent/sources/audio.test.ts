import { describe, expect, it } from 'vitest'
import { absent, withMockedGlobals } from '../../../tests/support/browser-globals'
import { collectComponent, runSteps } from '../../../tests/support/collect-component'
import { audio } from './audio'

const param = () => ({ value: 0 })

/**
 * An OfflineAudioContext that renders `channels` (one Float32Array per channel) and records the
 * graph it was asked to build, so a test can tell what the source rendered and what it read.
 */
function fakeOfflineAudioContext(channels: () => Float32Array[]) {
  const built: { contexts: unknown[][]; connections: string[] } = { contexts: [], connections: [] }
  class OfflineAudioContext {
    destination = { kind: 'destination' }
    constructor(...args: unknown[]) {
      built.contexts.push(args)
    }
    createOscillator() {
      return {
        type: 'sine',
        frequency: param(),
        connect: () => built.connections.push('oscillator → compressor'),
        start: () => undefined,
      }
    }
    createDynamicsCompressor() {
      return {
        threshold: param(),
        knee: param(),
        ratio: param(),
        attack: param(),
        release: param(),
        connect: (_: unknown, output: number, input: number) =>
          built.connections.push(`compressor ${output} → merger ${input}`),
      }
    }
    createChannelMerger(inputs: number) {
      return { inputs, connect: () => built.connections.push('merger → destination') }
    }
    async startRendering() {
      const data = channels()
      return { length: 4500, getChannelData: (channel: number) => data[channel] }
    }
  }
  return { OfflineAudioContext, built }
}

/** A channel of 4500 samples: `head` before frame 4000 (never read), `tail` from there on. */
function channel(head: number, tail: number): Float32Array {
  const samples = new Float32Array(4500).fill(head)
  samples.fill(tail, 4000)
  return samples
}

describe('audio', () => {
  it('is the sum of the last 500 samples’ magnitudes, rounded to 9 decimals, when both channels agree', async () => {
    const { OfflineAudioContext, built } = fakeOfflineAudioContext(() => [
      channel(0.9, -0.000_25),
      channel(0.9, -0.000_25),
    ])
    await withMockedGlobals({ OfflineAudioContext }, async () => {
      // 500 × 0.00025 as float32 (0.000250000011874…) is 0.12500000594…: nine decimals are kept.
      expect(await runSteps(audio())).toBe(0.125_000_006)
    })
    expect(built.contexts).toEqual([[2, 4500, 44_100]])
    expect(built.connections).toEqual([
      'oscillator → compressor',
      'compressor 0 → merger 0',
      'oscillator → compressor',
      'compressor 0 → merger 1',
      'merger → destination',
    ])
  })

  it('is { randomized: true } where the two identical chains render differently (noise added)', async () => {
    const { OfflineAudioContext } = fakeOfflineAudioContext(() => [channel(0, 0.1), channel(0, 0.100_001)])
    await withMockedGlobals({ OfflineAudioContext }, async () => {
      expect(await runSteps(audio())).toEqual({ randomized: true })
    })
  })

  it('is unsupported without the Web Audio API', async () => {
    await withMockedGlobals({ OfflineAudioContext: absent }, async () => {
      expect(await runSteps(audio())).toBe('unsupported')
    })
  })

  it('rejects where rendering fails, and collect records the error', async () => {
    const { OfflineAudioContext } = fakeOfflineAudioContext(() => {
      throw new DOMException('Rendering failed', 'InvalidStateError')
    })
    await withMockedGlobals({ OfflineAudioContext }, async () => {
      await expect(runSteps(audio())).rejects.toThrow('Rendering failed')
      expect(await collectComponent('audio')).toEqual({
        error: 'InvalidStateError: Rendering failed',
        duration: expect.any(Number),
      })
    })
  })
})
