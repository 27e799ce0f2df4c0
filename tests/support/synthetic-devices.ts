import type { ComponentResult } from '@/contracts/identify'

/** A small seeded PRNG (mulberry32), so synthetic populations are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Picks from a list with a skew towards its first entries, as real device populations are skewed. */
function pick<T>(random: () => number, options: readonly T[]): T {
  const index = Math.floor(random() ** 2 * options.length)
  return options[Math.min(index, options.length - 1)] as T
}

const gpus = [
  'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620)',
  'ANGLE (NVIDIA GeForce RTX 3060)',
  'Apple M1',
  'Apple M2',
  'Adreno (TM) 650',
  'Mali-G78',
  'ANGLE (AMD Radeon RX 6600)',
  'SwiftShader',
]
const screens = [
  '1920x1080',
  '1366x768',
  '2560x1440',
  '1440x900',
  '390x844',
  '414x896',
  '1536x864',
  '3840x2160',
]
const timezones = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Tokyo',
  'Europe/London',
  'America/Los_Angeles',
  'Asia/Kolkata',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'Europe/Paris',
  'Africa/Lagos',
]
const languages = [
  ['en-US', 'en'],
  ['de-DE', 'de', 'en'],
  ['fr-FR', 'fr'],
  ['ja-JP', 'ja'],
  ['pt-BR', 'pt'],
  ['es-ES', 'es'],
  ['en-GB', 'en'],
  ['hi-IN', 'en'],
]
const platforms = ['Win32', 'MacIntel', 'Linux x86_64', 'iPhone', 'Linux armv8l']
const fontPool = [
  'Arial',
  'Calibri',
  'Cambria',
  'Helvetica Neue',
  'Menlo',
  'Ubuntu',
  'DejaVu Sans',
  'Noto Sans',
  'Segoe UI',
  'Roboto',
  'Georgia',
  'Verdana',
  'Consolas',
  'Futura',
  'Gill Sans',
  'Liberation Serif',
  'Source Code Pro',
  'Fira Sans',
  'Lato',
  'Open Sans',
]

const value = (v: ComponentResult extends infer R ? (R extends { value: infer V } ? V : never) : never) => ({
  value: v,
  duration: 1,
})

/**
 * A realistic synthetic device: hardware and rendering values shared by many devices, plus a
 * long tail (fonts, canvas rendering noise by driver version, voices) that makes most unique.
 */
export function syntheticDevice(seed: number): Record<string, ComponentResult> {
  const random = seededRandom(seed)
  const gpu = pick(random, gpus)
  const driver = Math.floor(random() * 40)
  const fonts = fontPool.filter(() => random() < 0.45)
  const device: Record<string, ComponentResult> = {
    userAgent: value(`Mozilla/5.0 Chrome/${120 + Math.floor(random() * 12)}.0.0.0`),
    languages: value(pick(random, languages)),
    timezone: value(pick(random, timezones)),
    screen: value(pick(random, screens)),
    devicePixelRatio: value(pick(random, [1, 2, 1.25, 1.5, 3])),
    hardwareConcurrency: value(pick(random, [8, 4, 12, 16, 6, 2])),
    deviceMemory: value(pick(random, [8, 4, 16, 2])),
    platform: value(pick(random, platforms)),
    colorScheme: value(pick(random, ['light', 'dark'])),
    canvas: value({ text: `${gpu}:${driver}:${Math.floor(random() * 6)}`, geometry: `${gpu}:${driver}` }),
    webglBasics: value({ renderer: gpu, vendor: gpu.split(' ')[0] ?? '' }),
    webglParameters: value(`${gpu}:${driver % 7}`),
    audio: value(124.04 + (driver % 9) / 1000),
    mathQuirks: value(pick(random, ['v8-a', 'v8-b', 'spidermonkey', 'jsc'])),
    fonts: value(fonts),
    // One digest per installed voice, as the agent sends them: a system's voices, more or fewer.
    speechVoices: value(Array.from({ length: Math.floor(random() * 30) }, (_, at) => `voice${at}`)),
    codecs: value(pick(random, ['full', 'no-hevc', 'no-av1'])),
    cookiesEnabled: value(true),
    touchSupport: value(random() < 0.3 ? { maxTouchPoints: 5 } : { maxTouchPoints: 0 }),
    webgpu: { error: 'timeout', duration: 50 },
  }
  // Drawn last, so the values above stay those of earlier versions: the screen less a taskbar, and
  // the window a browser reopens at (maximised, or a share of that screen somewhere on it).
  const [width = 0, height = 0] = String((device.screen as { value: string }).value)
    .split('x')
    .map(Number)
  const available = [width, height - 40]
  const share = random() < 0.5 ? 1 : 0.5 + Math.floor(random() * 40) / 100
  const outer = available.map((pixels) => Math.round(pixels * share))
  device.availableScreen = value([...available, 0, 0])
  device.windowGeometry = value({
    outer,
    inner: [outer[0] ?? 0, (outer[1] ?? 0) - 85],
    position: share === 1 ? [0, 0] : [Math.floor(random() * 400), Math.floor(random() * 200)],
    viewport: 1,
  })
  return device
}
