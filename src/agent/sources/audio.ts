import { UNSUPPORTED, type Unsupported } from '../unsupported'

type AudioValue = number | { randomized: true } | Unsupported

const FRAMES = 4500

/** One compressed triangle wave into `channel` of the merger; the output is identical per channel. */
function connectChain(context: OfflineAudioContext, merger: ChannelMergerNode, channel: number): void {
  const oscillator = context.createOscillator()
  oscillator.type = 'triangle'
  oscillator.frequency.value = 10_000
  const compressor = context.createDynamicsCompressor()
  compressor.threshold.value = -50
  compressor.knee.value = 40
  compressor.ratio.value = 12
  compressor.attack.value = 0
  compressor.release.value = 0.25
  oscillator.connect(compressor)
  compressor.connect(merger, 0, channel)
  oscillator.start(0)
}

function sumTail(samples: Float32Array): number {
  let sum = 0
  for (let index = 4000; index < FRAMES; index++) sum += Math.abs(samples[index] ?? 0)
  return sum
}

async function render(context: OfflineAudioContext): Promise<AudioValue> {
  const buffer = await context.startRendering()
  const first = sumTail(buffer.getChannelData(0))
  const second = sumTail(buffer.getChannelData(1))
  return first === second ? Math.round(first * 1e9) / 1e9 : { randomized: true }
}

/**
 * Offline audio rendering: the compressor's output differs by audio stack and CPU. Short buffer,
 * rendered off the main thread. The graph is rendered twice, as two identical chains into two
 * channels of one context (half the main-thread cost of two contexts), so noise added by privacy
 * browsers shows as two different channels. A stepped source: each chain is a step (up to 20 ms
 * each on a CPU slowed 4×), then the rendering is waited for like any asynchronous source's.
 */
export function* audio(): Generator<void, AudioValue | Promise<AudioValue>> {
  if (typeof OfflineAudioContext === 'undefined') return UNSUPPORTED
  const context = new OfflineAudioContext(2, FRAMES, 44_100)
  const merger = context.createChannelMerger(2)
  connectChain(context, merger, 0)
  yield
  connectChain(context, merger, 1)
  merger.connect(context.destination)
  return render(context)
}
