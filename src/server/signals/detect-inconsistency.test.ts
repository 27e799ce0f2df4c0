import { describe, expect, it } from 'vitest'
import type { ComponentResult, Json } from '@/contracts/identify'
import { detectBot } from './detect-bot'
import { ComponentReader } from './read-components'
import { HEADER_TEXT_LIMIT, type RequestEvidence, readRequestHeaders } from './request-evidence'

const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36'
const safari =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15'

/** Chromium 150 on Linux as the agent reads it on a secure origin (measured in the e2e browser). */
function components(overrides: Record<string, Json> = {}) {
  const values: Record<string, Json> = {
    userAgent: chrome,
    vendor: 'Google Inc.',
    vendorFlavors: ['chrome'],
    languages: ['en-US'],
    plugins: ['PDF Viewer|application/pdf,text/pdf'],
    permissions: { notification: 'default', query: 'prompt' },
    userAgentData: {
      platform: 'Linux',
      mobile: false,
      fullVersionList: [
        { brand: 'Chromium', version: '150.0.7871.100' },
        { brand: 'Google Chrome', version: '150.0.7871.100' },
      ],
    },
    webglBasics: {
      unmaskedRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
    },
    ...overrides,
  }
  return new ComponentReader(
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, { value, duration: 1 }]),
    ) as Record<string, ComponentResult>,
  )
}

/** The headers that browser sends with its identify call. */
function evidence(headers: Partial<RequestEvidence['headers']> = {}, more: Partial<RequestEvidence> = {}) {
  return {
    headers: {
      userAgent: chrome,
      acceptLanguage: 'en-US,en;q=0.9',
      clientHints: '"Chromium";v="150", "Google Chrome";v="150", "Not=A?Brand";v="24"',
      clientHintsMobile: '?0',
      clientHintsPlatform: '"Linux"',
      ...headers,
    },
    agentProof: 'valid',
    offShape: [],
    ...more,
  } satisfies RequestEvidence
}

describe('the request against its components', () => {
  it('finds nothing wrong with a browser whose headers and components agree', () => {
    expect(detectBot(components(), evidence())).toEqual({ result: 'notDetected', reasons: [] })
  })

  it('nor without client hints (plain HTTP, or a proxy that does not pass them)', () => {
    const plain = evidence({ clientHints: null, clientHintsMobile: null, clientHintsPlatform: null })
    expect(detectBot(components({ userAgentData: 'unsupported' }), plain).result).toBe('notDetected')
    expect(detectBot(components(), plain).result).toBe('notDetected')
  })

  it('nor for a browser whose user agent is overridden, which withholds its full versions', () => {
    // Measured: Chromium 150 started with --user-agent keeps its Sec-CH-UA header and low-entropy
    // brands, and answers getHighEntropyValues with an empty fullVersionList.
    const overridden = components({
      userAgentData: { platform: 'Linux', mobile: false, fullVersionList: [] },
    })
    expect(
      detectBot(overridden, evidence({ clientHints: '"Not;A=Brand";v="8", "Chromium";v="150"' })),
    ).toEqual({
      result: 'notDetected',
      reasons: [],
    })
  })

  it('flags a request without a User-Agent header on its own', () => {
    const bot = detectBot(components(), evidence({ userAgent: null }))
    expect(bot.result).toBe('bad')
    expect(bot.kind).toBe('Scripted client')
    expect(bot.reasons[0]).toMatch(/no User-Agent header/)
  })

  it('flags a User-Agent header that is not the browser’s own', () => {
    const bot = detectBot(components(), evidence({ userAgent: 'python-requests/2.32' }))
    expect(bot.result).toBe('bad')
    expect(bot.reasons.join(' ')).toMatch(/differs from the browser’s own/)
  })

  it('counts a missing or foreign Accept-Language as a weak hint, two of them as a bot', () => {
    const noLanguage = detectBot(components(), evidence({ acceptLanguage: null }))
    expect(noLanguage.result).toBe('notDetected')
    expect(noLanguage.reasons[0]).toMatch(/no Accept-Language/)
    expect(detectBot(components(), evidence({ acceptLanguage: 'de-DE,de;q=0.9' })).reasons[0]).toMatch(
      /starts with de-de/,
    )
    expect(detectBot(components(), evidence({ acceptLanguage: null }, { offShape: ['screen'] })).result).toBe(
      'bad',
    )
  })

  it('flags client hints that navigator.userAgentData does not repeat', () => {
    const cases: [Partial<RequestEvidence['headers']>, Record<string, Json>, RegExp][] = [
      [{ clientHints: '"Chromium";v="149", "Not=A?Brand";v="24"' }, {}, /names Chromium 149/],
      [{ clientHintsPlatform: '"Windows"' }, {}, /platform is Windows/],
      [{ clientHintsMobile: '?1' }, {}, /mobile device/],
      [{}, { userAgentData: 'unsupported' }, /no navigator.userAgentData/],
    ]
    for (const [headers, overrides, reason] of cases) {
      const bot = detectBot(components(overrides), evidence(headers))
      expect(bot.result, String(reason)).toBe('bad')
      expect(bot.reasons.join(' ')).toMatch(reason)
    }
  })

  it('flags a user agent that names another engine than the page behaves like', () => {
    const safariOnChromium = detectBot(
      components({ userAgent: safari }),
      evidence({ userAgent: safari, clientHints: null }),
    )
    expect(safariOnChromium.result).toBe('bad')
    expect(safariOnChromium.kind).toBe('Spoofed user agent')
    expect(safariOnChromium.reasons.join(' ')).toMatch(
      /names a WebKit browser, but the page behaves like Chromium/,
    )
    // A real Safari: Apple's vendor, no userAgentData, no window.chrome.
    const realSafari = components({
      userAgent: safari,
      vendor: 'Apple Computer, Inc.',
      vendorFlavors: ['safari'],
      userAgentData: 'unsupported',
      plugins: ['PDF Viewer|application/pdf,text/pdf'],
      webglBasics: { unmaskedRenderer: 'Apple GPU' },
    })
    expect(detectBot(realSafari, evidence({ userAgent: safari, clientHints: null }))).toEqual({
      result: 'notDetected',
      reasons: [],
    })
  })

  it('weighs graphics against the claimed browser: a desktop Chrome renders through ANGLE', () => {
    // Without WebGL at all it is a real Chrome on a blocklisted GPU as often as not.
    expect(detectBot(components({ webglBasics: 'unsupported' }), evidence()).reasons).toEqual([])
    const foreign = detectBot(components({ webglBasics: { unmaskedRenderer: 'Apple M2' } }), evidence())
    expect(foreign.reasons[0]).toMatch(/not ANGLE/)
  })

  it('names components that did not have the agent’s shape', () => {
    const bot = detectBot(components(), evidence({}, { offShape: ['screen', 'fonts'] }))
    expect(bot.reasons[0]).toMatch(/2 signals did not have the shape the agent gives them \(screen, fonts\)/)
  })
})

describe('the headers as the signals read them', () => {
  it('reads at most 1 024 characters of each, so a 16 KB header costs no more than a browser’s', () => {
    const long = `Mozilla/5.0 Version/${'1'.repeat(16_000)}`
    const read = readRequestHeaders(new Headers({ 'user-agent': long, 'accept-language': 'en-US' }))
    expect(read.userAgent).toBe(long.slice(0, HEADER_TEXT_LIMIT))
    expect(read.acceptLanguage).toBe('en-US')
    expect(read.clientHints).toBeNull()
  })
})
