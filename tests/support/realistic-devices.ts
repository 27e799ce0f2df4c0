import type { ComponentResult, Json } from '../../src/contracts/identify'
import {
  type FingerprintProfile,
  profileComponents,
} from '../../src/server/identification/fingerprint-profile'
import { seededRandom } from './synthetic-devices'

export type Device = Record<string, Json>

/** Machines of one kind share a font set; installed software adds a family here and there. */
const fontSets = [
  ['DejaVu Sans', 'Liberation Sans', 'Noto Sans'],
  ['DejaVu Sans', 'Liberation Sans', 'Lato', 'Noto Sans', 'Roboto'],
  ['DejaVu Sans', 'Ubuntu'],
  ['Arial', 'Calibri', 'Cambria', 'Segoe UI'],
  ['Arial', 'Calibri', 'Cambria', 'Segoe UI', 'Franklin Gothic'],
  ['Helvetica Neue', 'Menlo', 'Avenir Next', 'Futura'],
]
const gpus = ['ANGLE (Intel UHD 620)', 'ANGLE (NVIDIA RTX 3060)', 'SwiftShader']
const screens = [
  [1920, 1080],
  [1366, 768],
  [1440, 900],
  [2560, 1440],
]
const zones = [
  ['Europe/Berlin', -60],
  ['America/New_York', 300],
  ['Asia/Tokyo', -540],
  ['America/Sao_Paulo', 180],
] as const
const locales = ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'pt-BR']

/**
 * A population shaped like a real one where it matters here: rendering values follow the
 * hardware and fonts (identical machines render identically), so many devices share them.
 */
export function realisticDevice(seed: number): Device {
  const random = seededRandom(seed)
  const pick = <T>(options: readonly T[]) => options[Math.floor(random() * options.length)] as T
  const fonts = pick(fontSets)
  const gpu = pick(gpus)
  const [timezone, offset] = pick(zones)
  const locale = pick(locales)
  const screen = pick(screens)
  const values: Device = {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0.0.0 Safari/537.36',
    userAgentData: { platform: 'Linux', fullVersionList: [{ brand: 'Chromium', version: '140.0.7339.80' }] },
    jsFeatures: '111111110111001111001000',
    codecs: 'psps--psps--ps--pspspsps--pspsps-',
    languages: [locale, locale.slice(0, 2)],
    intlLocale: { locale, calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23' },
    timezone,
    timezoneOffset: offset,
    screen,
    // Less a taskbar: what a maximised window fills.
    availableScreen: [screen[0] ?? 0, (screen[1] ?? 0) - 40, 0, 0],
    devicePixelRatio: pick([1, 1, 2]),
    hardwareConcurrency: pick([4, 8]),
    platform: 'Linux x86_64',
    webglBasics: { renderer: gpu, vendor: 'Google Inc.' },
    webglParameters: `${gpu}-limits`,
    canvas: { winding: true, text: `${gpu}|${fonts.join()}`, geometry: gpu },
    fonts,
    fontPreferences: { default: fonts.length * 10, mono: 600 },
    mathQuirks: [0.1, 0.2],
    reducedMotion: pick(['no-preference', 'no-preference', 'reduce']),
    contrast: pick(['no-preference', 'no-preference', 'no-preference', 'more']),
    colorScheme: pick(['light', 'dark']),
    webgpu: gpu === 'SwiftShader' ? 'no-adapter' : { vendor: 'intel', architecture: 'gen-9' },
  }
  // Drawn last, so the values above are those of earlier versions of this population. Browsers
  // reopen at the last window's size and place: maximised, or a share of the screen somewhere on it.
  const [width = 0, height = 0] = screen
  const maximised = random() < 0.5
  const share = pick([0.6, 0.7, 0.8])
  const outer = maximised ? [width, height - 40] : [Math.round(width * share), Math.round(height * share)]
  values.windowGeometry = {
    outer,
    inner: [outer[0] ?? 0, (outer[1] ?? 0) - 85],
    position: maximised ? [0, 0] : [pick([0, 40, 120, 300]), pick([0, 30, 80])],
    viewport: 1,
  }
  return values
}

/** The same device as the agent's payload components. */
export function asComponents(values: Device): Record<string, ComponentResult> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value, duration: 1 }]))
}

/** The same device as the server profiles it. */
export function realisticProfile(values: Device): FingerprintProfile {
  return profileComponents(asComponents(values))
}
