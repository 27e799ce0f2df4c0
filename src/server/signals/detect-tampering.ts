import type { FlagSignal } from '@/contracts/signals'
import type { ComponentReader } from './read-components'
import { readStealthTraces } from './stealth-traces'

function osFromUserAgent(userAgent: string): string | undefined {
  if (/Windows NT/.test(userAgent)) return 'Windows'
  if (/Android/.test(userAgent)) return 'Android'
  if (/iPhone|iPad/.test(userAgent)) return 'iOS'
  if (/Mac OS X|Macintosh/.test(userAgent)) return 'macOS'
  if (/CrOS/.test(userAgent)) return 'Chrome OS'
  if (/Linux/.test(userAgent)) return 'Linux'
  return undefined
}

function osFromPlatform(platform: string): string | undefined {
  if (/^Win/.test(platform)) return 'Windows'
  if (/^Mac/.test(platform)) return 'macOS'
  if (/^(iPhone|iPad|iPod)/.test(platform)) return 'iOS'
  if (/Linux|Android/.test(platform)) return 'Linux'
  return undefined
}

/** Desktop Chromium of a version that renders WebGL through ANGLE on every platform. */
function isDesktopChromium(userAgent: string): boolean {
  const major = Number(/Chrome\/(\d+)/.exec(userAgent)?.[1] ?? 0)
  return major >= 120 && !/Android|Mobile|CrOS/.test(userAgent)
}

/** The standard-time UTC offset of an IANA zone, in the agent's sign convention (minutes west). */
export function standardOffset(timeZone: string, year = new Date().getUTCFullYear()): number | undefined {
  try {
    const offsetAt = (month: number) => {
      const date = new Date(Date.UTC(year, month, 1, 12))
      const local = new Date(date.toLocaleString('en-US', { timeZone }))
      const utc = new Date(date.toLocaleString('en-US', { timeZone: 'UTC' }))
      return Math.round((utc.getTime() - local.getTime()) / 60_000)
    }
    return Math.max(offsetAt(0), offsetAt(6))
  } catch {
    return undefined
  }
}

/**
 * Signs that the browser lies about itself: native functions replaced (anti-detect browsers,
 * spoofing extensions) and values that contradict each other.
 */
export function detectTampering(read: ComponentReader): FlagSignal {
  const reasons: string[] = []
  const replaced = read.strings('nativeFunctions')
  if (replaced.length > 0)
    reasons.push(`Built-in browser functions were replaced: ${replaced.slice(0, 5).join(', ')}.`)

  const { proxied, outerSizeOverwritten, fakeFrameWindow } = readStealthTraces(read)
  if (proxied.length > 0)
    reasons.push(
      `Built-in functions are wrapped in Proxies that disguise them: ${proxied.slice(0, 5).join(', ')}.`,
    )
  if (outerSizeOverwritten) reasons.push('The outer window size was overwritten with plain values.')
  if (fakeFrameWindow) reasons.push('Frames hand out a fake window object.')

  const userAgent = read.string('userAgent') ?? ''
  const renderer = read.field('webglBasics', 'unmaskedRenderer')
  if (
    typeof renderer === 'string' &&
    renderer &&
    isDesktopChromium(userAgent) &&
    !renderer.startsWith('ANGLE (')
  ) {
    reasons.push(
      `The WebGL renderer "${renderer}" is not one desktop Chrome reports (always ANGLE): a spoofed value.`,
    )
  }
  const uaOs = osFromUserAgent(userAgent)
  const platformOs = osFromPlatform(read.string('platform') ?? '')
  if (uaOs && platformOs && uaOs !== platformOs && !(uaOs === 'Android' && platformOs === 'Linux')) {
    reasons.push(`The user agent says ${uaOs} but the platform says ${platformOs}.`)
  }
  const hintPlatform = read.field('userAgentData', 'platform')
  if (typeof hintPlatform === 'string' && hintPlatform && uaOs) {
    const hintOs = hintPlatform === 'Chrome OS' ? 'Chrome OS' : hintPlatform
    if (hintOs !== uaOs && !(uaOs === 'Linux' && hintOs === 'Chrome OS')) {
      reasons.push(`The user agent says ${uaOs} but the client hints say ${hintOs}.`)
    }
  }
  const brands = read.field('userAgentData', 'fullVersionList')
  const uaChrome = /Chrome\/(\d+)/.exec(userAgent)?.[1]
  if (Array.isArray(brands) && uaChrome) {
    const chromium = brands.find(
      (brand) => typeof brand === 'object' && brand && !Array.isArray(brand) && brand.brand === 'Chromium',
    )
    const hintMajor =
      chromium && typeof chromium === 'object' && !Array.isArray(chromium)
        ? String(chromium.version).split('.')[0]
        : undefined
    if (hintMajor && hintMajor !== uaChrome) {
      reasons.push(`The user agent says Chrome ${uaChrome} but the client hints say ${hintMajor}.`)
    }
  }
  const zone = read.string('timezone')
  const offset = read.number('timezoneOffset')
  if (zone && offset !== undefined) {
    const expected = standardOffset(zone)
    if (expected !== undefined && expected !== offset) {
      reasons.push(`The time zone ${zone} does not match the clock's UTC offset (${-offset / 60} h).`)
    }
  }
  const screen = read.value('screen')
  const inner = read.field('windowGeometry', 'inner')
  if (Array.isArray(screen) && Array.isArray(inner)) {
    const [screenWidth, screenHeight] = screen.map(Number)
    const [innerWidth, innerHeight] = inner.map(Number)
    if ((innerWidth ?? 0) > (screenWidth ?? 0) + 16 || (innerHeight ?? 0) > (screenHeight ?? 0) + 16) {
      reasons.push('The window is larger than the screen it is on.')
    }
  }
  const fonts = read.strings('fonts')
  if (
    uaOs === 'macOS' &&
    fonts.length > 0 &&
    fonts.includes('Segoe UI') &&
    !fonts.some((font) => ['Menlo', 'Geneva', 'Helvetica Neue'].includes(font))
  ) {
    reasons.push('A macOS user agent with Windows fonts and none of the macOS ones.')
  }
  return { result: reasons.length > 0, reasons }
}
