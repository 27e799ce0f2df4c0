import type { ComponentReader } from './read-components'
import type { RequestEvidence } from './request-evidence'

export interface Probes {
  strong: { reason: string; kind: string }[]
  weak: string[]
}

type Engine = 'Chromium' | 'Gecko' | 'WebKit'

/** Brands Chromium adds to its lists to keep servers from parsing them strictly ("GREASE"). */
const GREASE = /not.?a.?brand/i
const SCRIPT = 'Scripted client'

/**
 * What the identify request itself says about the browser, against what its components say: a
 * browser sends the same User-Agent as navigator.userAgent, its first language first, and (to
 * secure origins) client hints that navigator.userAgentData repeats. A script that fabricates or
 * replays components gets these wrong or leaves them out. Only evidence from one browser is
 * compared (header against the component that reads the same thing), never one component against
 * another: those contradictions are tampering (detect-tampering.ts), which users' own spoofing
 * extensions cause too.
 */
export function detectInconsistency(read: ComponentReader, evidence: RequestEvidence): Probes {
  const probes: Probes = { strong: [], weak: [] }
  const { headers } = evidence
  const userAgent = read.string('userAgent')
  if (!headers.userAgent) {
    probes.strong.push({
      reason: 'The request has no User-Agent header; every browser sends one.',
      kind: SCRIPT,
    })
  } else if (userAgent !== undefined && headers.userAgent.trim() !== userAgent.trim()) {
    probes.strong.push({
      reason: 'The User-Agent header differs from the browser’s own navigator.userAgent.',
      kind: SCRIPT,
    })
  }
  if (!headers.acceptLanguage) {
    probes.weak.push('The request has no Accept-Language header, which browsers always send.')
  } else {
    const first = primaryLanguage(headers.acceptLanguage)
    const languages = read.strings('languages')
    if (first && languages[0] && first !== languages[0].toLowerCase())
      probes.weak.push(
        `The Accept-Language header starts with ${first}, but the browser’s first language is ${languages[0]}.`,
      )
  }
  compareClientHints(read, evidence, probes)
  compareEngine(read, userAgent ?? headers.userAgent ?? '', probes)
  if (evidence.offShape.length > 0)
    probes.weak.push(
      `${evidence.offShape.length} signal${evidence.offShape.length === 1 ? '' : 's'} did not have the shape the agent gives them (${evidence.offShape.slice(0, 5).join(', ')}).`,
    )
  return probes
}

function primaryLanguage(header: string): string | undefined {
  const first = header.split(',')[0]?.split(';')[0]?.trim().toLowerCase()
  return first && first !== '*' ? first : undefined
}

/** Sec-CH-UA* against navigator.userAgentData: the same values, from the same browser. */
function compareClientHints(read: ComponentReader, { headers }: RequestEvidence, probes: Probes) {
  if (!headers.clientHints) return
  const data = read.value('userAgentData')
  if (data === 'unsupported') {
    probes.strong.push({
      reason: 'The request carries Chromium’s client hints, but the page reports no navigator.userAgentData.',
      kind: SCRIPT,
    })
    return
  }
  if (data === undefined) return
  const list = read.field('userAgentData', 'fullVersionList')
  // Empty when the user agent is overridden (--user-agent, enterprise policy): Chromium then withholds
  // its full versions from the page, while its headers still name the brands.
  if (Array.isArray(list) && list.length > 0) {
    const versions = new Map<string, string>()
    for (const entry of list) {
      if (entry && typeof entry === 'object' && !Array.isArray(entry) && typeof entry.brand === 'string')
        versions.set(entry.brand, String(entry.version ?? '').split('.')[0] ?? '')
    }
    for (const [, brand, major] of headers.clientHints.matchAll(/"([^"]*)"\s*;\s*v="([^"]*)"/g)) {
      if (!brand || GREASE.test(brand)) continue
      if (versions.get(brand) !== major) {
        probes.strong.push({
          reason: `The client hints header names ${brand} ${major}, but navigator.userAgentData does not.`,
          kind: SCRIPT,
        })
        break
      }
    }
  }
  const platform = read.field('userAgentData', 'platform')
  const headerPlatform = headers.clientHintsPlatform?.replace(/^"|"$/g, '')
  if (typeof platform === 'string' && headerPlatform !== undefined && headerPlatform !== platform)
    probes.strong.push({
      reason: `The client hints header says the platform is ${headerPlatform}, navigator.userAgentData says ${platform}.`,
      kind: SCRIPT,
    })
  const mobile = read.field('userAgentData', 'mobile')
  if (
    typeof mobile === 'boolean' &&
    headers.clientHintsMobile &&
    headers.clientHintsMobile !== (mobile ? '?1' : '?0')
  )
    probes.strong.push({
      reason:
        'The client hints header and navigator.userAgentData disagree on whether this is a mobile device.',
      kind: SCRIPT,
    })
}

function claimedEngine(userAgent: string): Engine | undefined {
  // Every browser on iOS is WebKit, whatever its name (CriOS, FxiOS, EdgiOS).
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'WebKit'
  if (/Firefox\//.test(userAgent)) return 'Gecko'
  if (/Chrome\/|Chromium\//.test(userAgent)) return 'Chromium'
  // The version's digits end at a space: `[\d.]+` then `.*` could split a long run of digits every
  // way before failing (quadratic in the header's length).
  if (/Version\/[\d.]+ .*Safari\//.test(userAgent)) return 'WebKit'
  return undefined
}

/** What the page's own behaviour says its engine is; each entry names its evidence. */
function observedEngines(read: ComponentReader): [Engine, string][] {
  const seen: [Engine, string][] = []
  const data = read.value('userAgentData')
  if (data !== undefined && data !== 'unsupported' && typeof data === 'object')
    seen.push(['Chromium', 'navigator.userAgentData exists only in Chromium'])
  const vendor = read.value('vendor')
  if (vendor === 'Google Inc.') seen.push(['Chromium', 'navigator.vendor is Google Inc.'])
  if (vendor === 'Apple Computer, Inc.') seen.push(['WebKit', 'navigator.vendor is Apple Computer, Inc.'])
  if (vendor === '') seen.push(['Gecko', 'navigator.vendor is empty'])
  if (read.strings('vendorFlavors').includes('chrome') && !read.strings('vendorFlavors').includes('safari'))
    seen.push(['Chromium', 'the window.chrome object exists'])
  return seen
}

/** The browser the user agent names, against the engine its page behaves like, and its graphics. */
function compareEngine(read: ComponentReader, userAgent: string, probes: Probes) {
  const claimed = claimedEngine(userAgent)
  if (!claimed) return
  const contrary = observedEngines(read).find(([engine]) => engine !== claimed)
  if (contrary) {
    probes.strong.push({
      reason: `The user agent names a ${claimed} browser, but the page behaves like ${contrary[0]} (${contrary[1]}).`,
      kind: 'Spoofed user agent',
    })
  }
  const desktopChrome =
    claimed === 'Chromium' &&
    Number(/Chrome\/(\d+)/.exec(userAgent)?.[1] ?? 0) >= 120 &&
    !/Android|Mobile|CrOS/.test(userAgent)
  if (!desktopChrome) return
  // No WebGL at all is no hint: Chrome has stopped falling back to its software renderer
  // (SwiftShader) for a blocklisted GPU, and bench:detection's uncontrolled Chromium under Xvfb has none.
  const renderer = read.field('webglBasics', 'unmaskedRenderer')
  if (typeof renderer === 'string' && renderer && !renderer.startsWith('ANGLE ('))
    probes.weak.push(
      `A desktop Chrome whose WebGL renderer is not ANGLE, as Chrome's always is ("${renderer.slice(0, 80)}").`,
    )
}
