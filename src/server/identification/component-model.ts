import type { SourceName } from '@/agent/sources'
import { fontCandidates } from '@/agent/sources/fonts'

/**
 * How matching reads each component. Components that tend to change together (a time zone and
 * its offset, a browser build's user agent and feature set) form one facet, compared as one piece
 * of evidence, so one change is never counted twice.
 *
 * Per facet, defaults for a fresh server (learned values replace them, see population.ts):
 * - `changeRate`: how often one device's facet differs from its stored profile when it comes back
 *   without its storage (the case matching serves: a cleared browser is often an adjusted one).
 *   Browser builds update monthly, people travel and zoom; accessibility settings and hardware
 *   almost never change. This is what tells a twin (a rarely changing value differs) from the
 *   same device after an ordinary change.
 * - `closeShare`: of those changes, the share that keep most of the value's structure (a font
 *   added, a version bumped), so a close value is weak counter-evidence, not a disagreement.
 * - `commonness`: how common a typical value is among devices, before statistics exist.
 * - `closeChance`: how likely another device's value is close to this one without being equal,
 *   before the look-alikes of a request say how common close values are (closeRatesAmong).
 * - `twinDifference`: how often two machines of one kind (same model, same image: a fleet)
 *   differ in this facet. A difference weighed against this rather than against the whole
 *   population tells "the same device, changed" from "its twin" (see twinBits).
 * - `given` (optional): a component the facet's values largely follow (a maximised window is the
 *   screen's size). An agreement then counts by how rare the value is among the devices sharing
 *   that component's value, so one fact is not counted twice; `commonness` is that share's prior.
 */
export interface FacetModel {
  members: readonly SourceName[]
  changeRate: number
  closeShare: number
  commonness: number
  closeChance: number
  twinDifference: number
  given?: SourceName
  /**
   * A component the facet's changes often come with (the languages with the time zone: a browser
   * set to another place), without its values being counted among that component's devices. A
   * facet with a `given` changes with it too.
   */
  changesWith?: SourceName
  /**
   * Changes that come on the vendor's schedule, not the person's: a browser updates itself every
   * few weeks, however often its user visits. A device's comebacks without one say nothing about
   * the next, so the device's own record may raise the facet's change rate, never lower it below
   * the population's (device-volatility.ts).
   */
  scheduled?: boolean
  /**
   * With `scheduled`: the members that name the build (its version numbers). Builds only move
   * forward, so a value of one of these that the device showed before is a rollback, not a return
   * (score-evidence.ts); the facet's other members (a PDF viewer turned off) may go back.
   */
  build?: readonly SourceName[]
  /**
   * Set by the machine and the system image it came with (its GPU, audio stack, fonts and voices
   * as shipped, its processor), not by its user: one machine's values of these facets come
   * together, so their agreements are not independent evidence (match-visitor.ts machineAgreement
   * counts them together, by how many look-alikes hold them all).
   */
  machine?: true
}

export const facets = {
  browser: {
    members: [
      'userAgent',
      'userAgentData',
      'vendor',
      'vendorFlavors',
      'jsFeatures',
      'errorStack',
      'plugins',
      'pdfViewer',
      'codecs',
      'paymentRequest',
      'applePay',
      'privateClickMeasurement',
    ],
    changeRate: 0.2,
    closeShare: 0.9,
    commonness: 0.1,
    closeChance: 0.3,
    twinDifference: 0.3,
    scheduled: true,
    build: ['userAgent', 'userAgentData'],
  },
  // Most changes to a language list add or drop a further language; switching the primary
  // language (and with it Intl's formats) is rare, and is what tells language twins apart.
  // A browser set to another place (a move, a privacy tool or an anti-detect profile matching its
  // proxy's country) is set to its languages as often as not.
  locale: {
    members: ['languages', 'intlLocale'],
    changeRate: 0.05,
    closeShare: 0.9,
    commonness: 0.1,
    closeChance: 0.02,
    twinDifference: 0.2,
    changesWith: 'timezone',
  },
  time: {
    members: ['timezone', 'timezoneOffset'],
    changeRate: 0.1,
    closeShare: 0,
    commonness: 0.1,
    closeChance: 0,
    twinDifference: 0.2,
  },
  // A laptop docked to a monitor, or undocked, shows another screen.
  screen: {
    members: ['screen', 'availableScreen', 'colorDepth', 'colorGamut', 'hdr'],
    changeRate: 0.15,
    closeShare: 0.3,
    commonness: 0.1,
    closeChance: 0.05,
    twinDifference: 0.3,
  },
  // Page zoom (Ctrl +/-) and a window moved to another display change the pixel ratio, and with it
  // the measured widths of text (glyphs are fitted to device pixels): they change together.
  zoom: {
    members: ['devicePixelRatio', 'fontPreferences'],
    changeRate: 0.1,
    closeShare: 0,
    commonness: 0.4,
    closeChance: 0,
    twinDifference: 0.3,
  },
  hardware: {
    members: [
      'hardwareConcurrency',
      'deviceMemory',
      'platform',
      'architecture',
      'touchSupport',
      'hoverPointer',
    ],
    changeRate: 0.003,
    closeShare: 0.5,
    commonness: 0.2,
    closeChance: 0.05,
    twinDifference: 0.1,
    machine: true,
  },
  // Most graphics changes are driver updates that keep the renderer's structure. A different
  // graphics stack (another GPU, WebGL switched off or blocklisted) is as rare as new hardware.
  graphics: {
    members: ['webglBasics', 'webglParameters', 'webglExtensions'],
    changeRate: 0.03,
    closeShare: 0.9,
    commonness: 0.1,
    closeChance: 0.05,
    twinDifference: 0.05,
    machine: true,
  },
  // Adapter availability varies from one launch of the same browser to the next.
  webgpu: {
    members: ['webgpu'],
    changeRate: 0.15,
    closeShare: 0.5,
    commonness: 0.3,
    closeChance: 0.1,
    twinDifference: 0.1,
    machine: true,
  },
  audio: {
    members: ['audio', 'audioLatency'],
    changeRate: 0.05,
    closeShare: 0.3,
    commonness: 0.2,
    closeChance: 0.05,
    twinDifference: 0.1,
    machine: true,
  },
  // Canvas text is drawn with the installed fonts: a font change often changes it too.
  rendering: {
    members: ['fonts', 'canvas'],
    changeRate: 0.08,
    closeShare: 0.9,
    commonness: 0.05,
    closeChance: 0.05,
    twinDifference: 0.3,
    machine: true,
  },
  voices: {
    members: ['speechVoices'],
    changeRate: 0.05,
    closeShare: 0.5,
    commonness: 0.2,
    closeChance: 0.05,
    twinDifference: 0.2,
    machine: true,
  },
  engine: {
    members: ['mathQuirks'],
    changeRate: 0.01,
    closeShare: 0.5,
    commonness: 0.5,
    closeChance: 0.05,
    twinDifference: 0.01,
    machine: true,
  },
  accessibility: {
    members: [
      'contrast',
      'forcedColors',
      'invertedColors',
      'monochrome',
      'reducedMotion',
      'reducedTransparency',
    ],
    changeRate: 0.001,
    closeShare: 0,
    commonness: 0.7,
    closeChance: 0,
    twinDifference: 0.1,
  },
  // Systems set to "automatic" appearance (macOS, iOS, Android) follow the time of day, so the
  // scheme flips between two visits about one time in ten: an ordinary change, not a twin's mark.
  colorScheme: {
    members: ['colorScheme'],
    changeRate: 0.1,
    closeShare: 0,
    commonness: 0.5,
    closeChance: 0,
    twinDifference: 0.3,
  },
  // A browser reopens at its last window's size and place, a private window too; people resize,
  // maximise and move it, and the page's own size follows toolbars and page zoom: a value that
  // changes often, so weak evidence either way. Compared field by field (outer and inner size,
  // position, pinch zoom): a window only moved, or a page only zoomed, is close.
  window: {
    members: ['windowGeometry'],
    changeRate: 0.3,
    closeShare: 0.3,
    commonness: 0.2,
    closeChance: 0.05,
    twinDifference: 0.5,
    given: 'availableScreen',
  },
  privacySettings: {
    members: ['doNotTrack', 'globalPrivacyControl'],
    changeRate: 0.02,
    closeShare: 0,
    commonness: 0.7,
    closeChance: 0,
    twinDifference: 0.1,
  },
} as const satisfies Record<string, FacetModel>

export type FacetName = keyof typeof facets

/**
 * Signals that describe the moment, not the device (network, storage in use, permissions), or
 * that only serve bot and tampering detection: they never take part in matching.
 */
const momentary = [
  'connection',
  'storageQuota',
  'permissions',
  'webdriver',
  'automationGlobals',
  'nativeFunctions',
  'stealthTraces',
  // Storage availability depends on the context (third-party frame, private window), not the device.
  'cookiesEnabled',
  'localStorage',
  'sessionStorage',
  'indexedDb',
] as const satisfies readonly SourceName[]
const notIdentifying: ReadonlySet<string> = new Set(momentary)

// Every source is either in a facet or momentary: a new source must be placed before it compiles.
type Unplaced = Exclude<
  SourceName,
  (typeof facets)[FacetName]['members'][number] | (typeof momentary)[number]
>
const everySourcePlaced: [Unplaced] extends [never] ? true : Unplaced = true
void everySourcePlaced

const facetOfComponent = new Map<string, FacetName>(
  Object.entries(facets).flatMap(([facet, model]) => model.members.map((name) => [name, facet as FacetName])),
)

/** The facet a component belongs to; undefined for components that never take part in matching. */
export function facetOf(name: string): FacetName | undefined {
  return facetOfComponent.get(name)
}

export function isIdentifying(name: string): boolean {
  return !notIdentifying.has(name) && facetOfComponent.has(name)
}

/**
 * How a component's value is split into parts for comparison by structure: a set compares by
 * overlap (fonts, voices), a record field by field (screen), a user agent by its version-free
 * form. A preference list is a set whose first entry counts twice: adding a further language
 * keeps a list close; another language first weighs as two members changed. A value compared
 * `whole` is one fact (Intl's formats all follow from the one locale they resolve to): any change
 * makes it different. Components not listed are split by their JSON shape (arrays as sets,
 * objects as records); a scalar has no parts and compares whole.
 */
export type PartsKind = 'set' | 'record' | 'userAgent' | 'positions' | 'preferences' | 'whole'
export const partsKinds: Partial<Record<SourceName, PartsKind>> = {
  userAgent: 'userAgent',
  userAgentData: 'userAgent',
  screen: 'record',
  availableScreen: 'record',
  mathQuirks: 'record',
  codecs: 'positions',
  jsFeatures: 'positions',
  languages: 'preferences',
  intlLocale: 'whole',
}

/**
 * Collections a person edits an item at a time: installing fonts or a voice pack adds members,
 * uninstalling removes them. One that both gained and lost members changed twice (a family
 * removed and another added), which is rarer than either change alone. Lists a software update
 * rewrites in one go (WebGL extensions, plugins, codecs) are not among them, nor the language
 * list: its first entry is a part of its own, so putting another language first gains and loses
 * a part in one edit.
 */
export const editedSets: ReadonlySet<string> = new Set<SourceName>(['fonts', 'speechVoices'])

/**
 * Of the edited sets, those whose members come from a list the agent knows: how many members it
 * probes (the fonts' candidates; on a page loading one of them as a web font, one fewer), so the
 * sets one device's edits reach from its own can be counted (score-evidence.ts, setsReached). A
 * browser running an older agent may probe another list: the count is this server's.
 */
export const knownMembers: Partial<Record<SourceName, number>> = { fonts: fontCandidates.length }

/**
 * Blocking: every group hashes to one indexed key; see blocking-keys.ts. A key shared by many
 * devices (a phone model as it came) finds a device only by chance among them (each key reads a
 * bounded number of visitors), so the keys that find a device among its look-alikes are those
 * holding the settings people change: the language list (with the locale), the time zone, the
 * colour scheme, the fonts, the screen (with its scale). There is a key for every three of these
 * five: whichever two changed (a trip changes the time zone and adds a language), the key of the
 * other three survives, and four survive one change. Three settings, not two: a key of two is
 * shared by a crowd of one model's devices (the colour scheme and the fonts on a phone that
 * came with its fonts), and the device is then read only by chance. The keys take turns on five
 * hardware anchors, so an update that re-renders any one of canvas, WebGL's parameters or basics,
 * or audio keeps six of the ten (both WebGL values at once: four); one key holds all the settings
 * and no rendering value. Two keys of hardware alone find a device
 * whose settings all changed, among few look-alikes.
 */
const language = ['languages', 'intlLocale'] as const
const display = ['screen', 'devicePixelRatio'] as const
/** The settings people change, each a unit (its members change together). */
export const settings: readonly (readonly SourceName[])[] = [
  language,
  ['timezone'],
  ['colorScheme'],
  ['fonts'],
  display,
]
const anchors: readonly (readonly SourceName[])[] = [
  ['canvas', 'hardwareConcurrency', 'platform'],
  ['webglBasics', 'hardwareConcurrency', 'platform'],
  ['audio', 'hardwareConcurrency', 'platform'],
  ['audio', 'webglParameters'],
  ['canvas', 'webglBasics'],
]
const threeSettings = settings.flatMap((first, i) =>
  settings
    .slice(i + 1)
    .flatMap((second, j) => settings.slice(i + j + 2).map((third) => [...first, ...second, ...third])),
)
export const blockingGroups: readonly (readonly SourceName[])[] = [
  // Hardware alone.
  ['canvas', 'hardwareConcurrency', 'platform', 'mathQuirks'],
  ['webglBasics', 'webglParameters', 'hardwareConcurrency', 'platform', 'audio'],
  // Every setting, no rendering.
  ['hardwareConcurrency', 'platform', 'deviceMemory', ...settings.flat()],
  // Every three settings, on an anchor each.
  ...threeSettings.map((held, index) => [...(anchors[index % anchors.length] ?? []), ...held]),
]
