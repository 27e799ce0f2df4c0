import type { ComponentReader } from './read-components'

/** The agent's `stealthTraces` component, read once for the bot and tampering detectors. */
export function readStealthTraces(read: ComponentReader) {
  const traces = read.strings('stealthTraces')
  return {
    /** Natives wrapped in Proxies that pass toString checks, by name (e.g. `navigator.webdriver`). */
    proxied: traces
      .filter((trace) => trace.startsWith('proxy '))
      .map((trace) => trace.slice('proxy '.length)),
    outerSizeOverwritten: traces.some((trace) => trace.startsWith('window.outer')),
    fakeFrameWindow: traces.includes('iframe.contentWindow'),
  }
}
