import { UNSUPPORTED, type Unsupported } from '../marker'

type AudioValue = number | { randomized: true } | Unsupported

async function renderOnce(): Promise<number> {
  const context = new OfflineAudioContext(1, 4500, 44_100)
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
  compressor.connect(context.destination)
  oscillator.start(0)
  const buffer = await context.startRendering()
  const samples = buffer.getChannelData(0)
  let sum = 0
  for (let index = 4000; index < 4500; index++) sum += Math.abs(samples[index] ?? 0)
  return sum
}

/**
 * Offline audio rendering: the compressor's output differs by audio stack and CPU. Short buffer,
 * rendered off the main thread; rendered twice so noise added by privacy browsers shows.
 */
export async function audio(): Promise<AudioValue> {
  if (typeof OfflineAudioContext === 'undefined') return UNSUPPORTED
  const [first, second] = await Promise.all([renderOnce(), renderOnce()])
  return first === second ? Math.round(first * 1e9) / 1e9 : { randomized: true }
}
