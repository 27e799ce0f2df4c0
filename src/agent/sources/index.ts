import { applePay } from './apple-pay'
import { architecture } from './architecture'
import { audio } from './audio'
import { audioLatency, wakeAudioOutput } from './audio-latency'
import { automationGlobals } from './automation-globals'
import { availableScreen } from './available-screen'
import { canvas } from './canvas'
import { codecs } from './codecs'
import { colorDepth } from './color-depth'
import { colorGamut } from './color-gamut'
import { colorScheme } from './color-scheme'
import { connection } from './connection'
import { contrast } from './contrast'
import { cookiesEnabled } from './cookies-enabled'
import { deviceMemory } from './device-memory'
import { devicePixelRatio } from './device-pixel-ratio'
import { doNotTrack } from './do-not-track'
import { errorStack } from './error-stack'
import { fontPreferences } from './font-preferences'
import { fonts } from './fonts'
import { forcedColors } from './forced-colors'
import { globalPrivacyControl } from './global-privacy-control'
import { hardwareConcurrency } from './hardware-concurrency'
import { hdr } from './hdr'
import { hoverPointer } from './hover-pointer'
import { indexedDb } from './indexed-db'
import { intlLocale } from './intl-locale'
import { invertedColors } from './inverted-colors'
import { jsFeatures } from './js-features'
import { languages } from './languages'
import { localStorage } from './local-storage'
import { mathQuirks } from './math-quirks'
import { monochrome } from './monochrome'
import { nativeFunctions } from './native-functions'
import { paymentRequest } from './payment-request'
import { pdfViewer } from './pdf-viewer'
import { permissions } from './permissions'
import { platform } from './platform'
import { plugins } from './plugins'
import { privateClickMeasurement } from './private-click-measurement'
import { reducedMotion } from './reduced-motion'
import { reducedTransparency } from './reduced-transparency'
import { screen } from './screen'
import { sessionStorage } from './session-storage'
import { speechVoices } from './speech-voices'
import { stealthTraces } from './stealth-traces'
import { storageQuota } from './storage-quota'
import { timezone } from './timezone'
import { timezoneOffset } from './timezone-offset'
import { touchSupport } from './touch-support'
import { userAgent } from './user-agent'
import { userAgentData } from './user-agent-data'
import { vendor } from './vendor'
import { vendorFlavors } from './vendor-flavors'
import { webdriver } from './webdriver'
import { webglBasics } from './webgl-basics'
import { webglExtensions } from './webgl-extensions'
import { webglParameters } from './webgl-parameters'
import { webgpu } from './webgpu'
import { windowGeometry } from './window-geometry'

/**
 * The registry: every signal the agent collects. Key order is run order — asynchronous sources
 * first, so they work in the background while the synchronous ones run in short slices.
 */
export const sources = {
  userAgentData,
  audio,
  webgpu,
  speechVoices,
  storageQuota,
  permissions,
  userAgent,
  languages,
  screen,
  availableScreen,
  devicePixelRatio,
  colorDepth,
  hardwareConcurrency,
  deviceMemory,
  platform,
  vendor,
  vendorFlavors,
  touchSupport,
  cookiesEnabled,
  localStorage,
  sessionStorage,
  indexedDb,
  webdriver,
  windowGeometry,
  automationGlobals,
  nativeFunctions,
  connection,
  canvas,
  webglBasics,
  webglParameters,
  webglExtensions,
  fonts,
  fontPreferences,
  mathQuirks,
  colorGamut,
  hdr,
  contrast,
  forcedColors,
  invertedColors,
  monochrome,
  reducedMotion,
  reducedTransparency,
  hoverPointer,
  colorScheme,
  plugins,
  pdfViewer,
  codecs,
  architecture,
  applePay,
  privateClickMeasurement,
  paymentRequest,
  doNotTrack,
  globalPrivacyControl,
  errorStack,
  jsFeatures,
  // Late: Intl's data is loaded by then off the main thread (intl-warm-up.ts), where a worker can.
  timezone,
  timezoneOffset,
  intlLocale,
  // Late: the audio service, which opening an AudioContext would wait for, is started by then
  // (startAfter).
  audioLatency,
  // After every other source, so its brief prototype changes to natives can affect none of them.
  stealthTraces,
}

export type SourceName = keyof typeof sources

/**
 * Work started in the background once a source has run, for a source further on. The audio
 * service starts after webgpu has made WebGL's context: in a fresh browser both start-ups at once
 * made that context's one long call longer (docs/benchmarks.md), and audioLatency, near the end,
 * still finds the service up. (Where WebGPU is missing, webgpu makes no context and webglBasics
 * makes it later; starting the service just before the fonts instead slowed their lookups, 41 to
 * 79 ms median in a probe, so it stays here.)
 */
export const startAfter: Partial<Record<SourceName, () => void>> = { webgpu: wakeAudioOutput }

/**
 * Sources whose value may legitimately change between two collections in the same page
 * (storage in use changes the quota estimate). Every other source must repeat exactly.
 */
export const volatileSources: ReadonlySet<SourceName> = new Set<SourceName>(['storageQuota'])
