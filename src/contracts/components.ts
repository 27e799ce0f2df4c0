import { z } from 'zod'
import type { Components } from '@/agent/collect'
import type { SourceName } from '@/agent/sources'

/**
 * The shape of every signal the agent collects, as the server checks it: kinds, and sizes a little
 * above what any browser gives (so a font list or a user agent from an unusual machine still fits),
 * never more. Keyed by the agent's registry: a shape for a source that does not exist, or a source
 * without one, does not compile; nor does a shape that refuses a value the agent's type allows
 * (`EveryAgentValueFits` below). The agent itself has no zod (its size budget); these stay here.
 *
 * Records take their fields as optional and drop unknown ones: the agent.js of the previous release
 * stays cached in browsers for up to a day, and a field added or removed since must not drop the
 * whole component.
 */

const UNSUPPORTED = z.literal('unsupported')
const text = (max: number) => z.string().max(max)
/** A short value the agent hashes (cyrb53, base 36) or encodes as a few characters. */
const digest = text(128)
const label = text(64)
const finite = z.number()
const list = <Item extends z.ZodType>(item: Item, max: number) => z.array(item).max(max)
const orUnsupported = <Value extends z.ZodType>(value: Value) => z.union([value, UNSUPPORTED])
/** A matchMedia() answer: one of the feature's keywords, or 'unsupported'. */
const mediaQuery = text(32)
const record = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).partial()
const scalarRecord = <Value extends z.ZodType>(maxKeys: number, value: Value) =>
  z
    .record(text(48), value)
    .refine((fields) => Object.keys(fields).length <= maxKeys, `At most ${maxKeys} fields.`)
const randomized = z.object({ randomized: z.literal(true) })
const webglParameter = z.union([finite, z.boolean(), label, list(finite, 4), z.null()])

export const componentShapes = {
  userAgentData: orUnsupported(
    record({
      platform: text(32),
      platformVersion: text(32),
      architecture: text(16),
      bitness: text(8),
      model: text(64),
      mobile: z.boolean(),
      wow64: z.boolean(),
      fullVersionList: list(record({ brand: text(64), version: text(32) }), 16),
    }),
  ),
  audio: z.union([finite, randomized, UNSUPPORTED]),
  webgpu: z.union([
    z.enum(['unsupported', 'no-adapter']),
    record({
      vendor: text(64),
      architecture: text(64),
      device: text(64),
      description: text(256),
      features: finite,
    }),
  ]),
  speechVoices: orUnsupported(list(digest, 512)),
  storageQuota: orUnsupported(finite),
  permissions: orUnsupported(record({ notification: text(16), query: text(16) })),
  userAgent: text(1024),
  languages: list(text(35), 32),
  timezone: text(64),
  timezoneOffset: finite,
  intlLocale: record({
    locale: label,
    calendar: text(32),
    numberingSystem: text(32),
    hourCycle: text(8).nullable(),
    number: text(64),
  }),
  screen: z.tuple([finite, finite]),
  availableScreen: z.tuple([finite, finite, finite, finite]),
  devicePixelRatio: finite,
  colorDepth: z.tuple([finite, finite]),
  hardwareConcurrency: orUnsupported(finite),
  deviceMemory: orUnsupported(finite),
  platform: label,
  vendor: label,
  vendorFlavors: list(text(48), 32),
  touchSupport: record({ maxTouchPoints: finite, touchEvent: z.boolean(), touchStart: z.boolean() }),
  cookiesEnabled: z.boolean(),
  localStorage: z.boolean(),
  sessionStorage: z.boolean(),
  indexedDb: z.boolean(),
  webdriver: orUnsupported(z.boolean()),
  windowGeometry: record({
    outer: list(finite, 2),
    inner: list(finite, 2),
    position: list(finite, 2),
    viewport: finite.nullable(),
  }),
  automationGlobals: list(text(128), 32),
  nativeFunctions: list(label, 64),
  connection: orUnsupported(
    record({ rtt: finite.nullable(), type: text(16).nullable(), saveData: z.boolean() }),
  ),
  canvas: z.union([
    randomized,
    record({ winding: z.boolean(), text: digest, geometry: digest }),
    UNSUPPORTED,
  ]),
  webglBasics: orUnsupported(
    record({
      version: text(128),
      shadingLanguage: text(128),
      vendor: text(128),
      renderer: text(256),
      unmaskedVendor: text(128).nullable(),
      unmaskedRenderer: text(256).nullable(),
    }),
  ),
  // A digest of the whole list, as agents before field-by-field parameters sent it.
  webglParameters: z.union([scalarRecord(48, webglParameter), digest]),
  webglExtensions: orUnsupported(list(label, 128)),
  fonts: list(label, 96),
  fontPreferences: scalarRecord(12, finite),
  mathQuirks: list(finite, 32),
  colorGamut: mediaQuery,
  hdr: mediaQuery,
  contrast: mediaQuery,
  forcedColors: mediaQuery,
  invertedColors: mediaQuery,
  monochrome: finite,
  reducedMotion: mediaQuery,
  reducedTransparency: mediaQuery,
  hoverPointer: list(mediaQuery, 4),
  colorScheme: mediaQuery,
  plugins: list(text(256), 16),
  pdfViewer: orUnsupported(z.boolean()),
  codecs: digest,
  architecture: finite,
  applePay: z.union([z.boolean(), z.enum(['unsupported', 'error'])]),
  privateClickMeasurement: text(32),
  paymentRequest: z.boolean(),
  doNotTrack: text(16),
  globalPrivacyControl: orUnsupported(z.boolean()),
  errorStack: record({ message: text(256), frame: text(16) }),
  jsFeatures: digest,
  audioLatency: orUnsupported(record({ baseLatency: finite, sampleRate: finite })),
  stealthTraces: list(label, 64),
} satisfies Record<SourceName, z.ZodType>

type AgentValue<Name extends SourceName> = Extract<Components[Name], { value: unknown }>['value']
/** The names whose shape refuses a value the agent's own type allows; `never` when there is none. */
type RefusedAgentValues = {
  [Name in SourceName]: [AgentValue<Name>] extends [z.input<(typeof componentShapes)[Name]>] ? never : Name
}[SourceName]
/** Fails to compile, naming the source, when a shape refuses what the agent sends. */
export const everyAgentValueFits: [RefusedAgentValues] extends [never] ? true : RefusedAgentValues = true

/** Longest error message kept from a component that failed in the browser (the agent sends ≤ 300). */
export const MAX_COMPONENT_ERROR_LENGTH = 160

/**
 * What one event may store of its components, in bytes of JSON. A real browser sends about
 * 6 KB (Chromium 150 here); the shapes above bound each value, this bounds their sum.
 */
export const MAX_STORED_COMPONENTS_BYTES = 16 * 1024
