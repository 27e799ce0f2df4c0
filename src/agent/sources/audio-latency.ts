import { UNSUPPORTED, type Unsupported } from '../unsupported'

/** The output device's base latency and sample rate, from a context that never plays. */
export function audioLatency(): { baseLatency: number; sampleRate: number } | Unsupported {
  if (typeof AudioContext === 'undefined') return UNSUPPORTED
  const context = new AudioContext()
  const value = {
    baseLatency: Math.round((context.baseLatency ?? -1) * 1e6) / 1e6,
    sampleRate: context.sampleRate,
  }
  void context.close()
  return value
}
