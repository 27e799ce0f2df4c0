/**
 * How much each component counts in matching: higher for values that are both stable over time
 * and rare among devices (rendering stack, fonts, hardware), lower for values that drift with
 * updates or travel (user agent, time zone, languages). Unlisted components weigh 1.
 */
const weights: Record<string, number> = {
  canvas: 4,
  webglBasics: 3,
  webglParameters: 3,
  webglExtensions: 2,
  webgpu: 2,
  audio: 3,
  fonts: 4,
  fontPreferences: 2.5,
  mathQuirks: 1.5,
  screen: 1.5,
  availableScreen: 1,
  devicePixelRatio: 1,
  colorDepth: 0.5,
  hardwareConcurrency: 1.5,
  deviceMemory: 1,
  platform: 1,
  architecture: 1,
  vendor: 0.5,
  vendorFlavors: 0.5,
  touchSupport: 1,
  timezone: 1,
  timezoneOffset: 0.5,
  languages: 1,
  intlLocale: 1,
  userAgent: 0.5,
  userAgentData: 0.5,
  codecs: 1.5,
  speechVoices: 2,
  plugins: 1,
  pdfViewer: 0.5,
  cssMedia: 1,
  colorScheme: 0.5,
  reducedMotion: 0.5,
  doNotTrack: 0.3,
  jsEngine: 1,
  errorStack: 0.5,
  audioLatency: 1,
  audioSampleRate: 0.5,
}

/**
 * Signals that describe the moment, not the device (window size, network, storage in use) or
 * that only serve bot and tampering detection: they never take part in matching.
 */
const notIdentifying = new Set([
  'windowGeometry',
  'connection',
  'storageQuota',
  'permissions',
  'webdriver',
  'automationGlobals',
  'nativeFunctions',
  'devtoolsProtocol',
  'stealthTraces',
  // Storage availability depends on the context (third-party frame, private window), not the device.
  'cookiesEnabled',
  'localStorage',
  'sessionStorage',
  'indexedDb',
])

export function componentWeight(name: string): number {
  return notIdentifying.has(name) ? 0 : (weights[name] ?? 1)
}

export function isIdentifying(name: string): boolean {
  return componentWeight(name) > 0
}

/**
 * Blocking groups: each hashes to one indexed key. A returning device is found when any one group
 * is unchanged, so each leaves out a different volatile part (fonts, time zone, languages, screen,
 * browser version) and a different noisy renderer (canvas or audio, which privacy browsers
 * randomise). Each mixes hardware with rarer values, so no key is shared by most devices of a model.
 */
export const blockingGroups: readonly (readonly string[])[] = [
  ['canvas', 'webglBasics', 'hardwareConcurrency', 'platform', 'fonts', 'languages', 'timezone'],
  ['audio', 'webglBasics', 'mathQuirks', 'screen', 'devicePixelRatio', 'timezone', 'colorScheme'],
  ['webglParameters', 'hardwareConcurrency', 'platform', 'screen', 'fonts', 'languages'],
]
