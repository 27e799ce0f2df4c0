import { UNSUPPORTED, type Unsupported } from '../unsupported'

/**
 * A browser's first AudioContext starts its audio service while the page waits: 40–140 ms in one
 * synchronous call, the agent's longest task in a fresh browser process. Listing the media devices
 * starts that service too, without holding the page (the list is not read, and a frame not allowed
 * to see devices gets an empty one all the same). Called early in the collection (startAfter), it
 * lets the context this source opens near its end take a few milliseconds (docs/benchmarks.md).
 */
export function wakeAudioOutput(): void {
  try {
    const devices = (globalThis.navigator as Partial<Navigator> | undefined)?.mediaDevices
    devices?.enumerateDevices?.().catch(() => undefined)
  } catch {
    // Nothing to wake: the context will start the service itself, as before.
  }
}

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
