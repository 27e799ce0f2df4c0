import { describe, expect, it } from 'vitest'
import type { ComponentResult, Json } from '@/contracts/identify'
import { BrowserSignals, SmartSignals, StoredSignals } from '@/contracts/signals'
import { computeSignals } from './compute-signals'
import { standardOffset } from './detect-tampering'
import { explainSuspectScore } from './suspect-score'

const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/** An ordinary desktop Chrome on Linux, as the agent reports it. */
function browser(overrides: Record<string, Json> = {}): Record<string, ComponentResult> {
  const values: Record<string, Json> = {
    userAgent: chrome,
    platform: 'Linux x86_64',
    userAgentData: { platform: 'Linux', fullVersionList: [{ brand: 'Chromium', version: '156.0.8078.73' }] },
    languages: ['en-US', 'en'],
    timezone: 'Europe/Berlin',
    timezoneOffset: -60,
    screen: [1920, 1080],
    windowGeometry: { outer: [1280, 900], inner: [1280, 820], position: [0, 0], viewport: 1 },
    webdriver: false,
    automationGlobals: [],
    nativeFunctions: [],
    plugins: ['PDF Viewer|application/pdf,text/pdf'],
    vendorFlavors: ['chrome'],
    permissions: { notification: 'default', query: 'prompt' },
    canvas: { winding: true, text: 'a', geometry: 'b' },
    audio: 124.04,
    storageQuota: 300_000,
    webglBasics: {
      renderer: 'ANGLE (Intel)',
      unmaskedRenderer: 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620)',
    },
    hardwareConcurrency: 8,
    deviceMemory: 8,
    fonts: ['DejaVu Sans', 'Liberation Sans'],
    ...overrides,
  }
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value, duration: 1 }]))
}

const signalsOf = (
  components: Record<string, ComponentResult>,
  velocity?: Parameters<typeof computeSignals>[1]['velocity'],
) => computeSignals(components, { ip: '192.0.2.1', velocity })

describe('bot detection', () => {
  it('does not flag an ordinary browser', () => {
    expect(signalsOf(browser()).bot).toEqual({ result: 'notDetected', reasons: [] })
  })

  it('flags Playwright-driven headless Chromium and names it', () => {
    const bot = signalsOf(
      browser({
        webdriver: true,
        userAgent: chrome.replace('Chrome/', 'HeadlessChrome/'),
      }),
    ).bot
    expect(bot.result).toBe('bad')
    expect(bot.kind).toBe('Headless Chromium')
    expect(bot.reasons.length).toBe(2)
  })

  it('still flags a stealth-patched browser: the patch itself gives it away', () => {
    const bot = signalsOf(browser({ nativeFunctions: ['navigator.webdriver'] })).bot
    expect(bot.result).toBe('bad')
    expect(bot.reasons.join(' ')).toMatch(/patched/)
  })

  it('names Selenium from chromedriver globals and Electron from its user agent', () => {
    expect(signalsOf(browser({ automationGlobals: ['cdc_adoQpoasnfa76pfcZLmcfl_Array'] })).bot.kind).toBe(
      'Selenium/WebDriver',
    )
    expect(signalsOf(browser({ userAgent: `${chrome} Electron/30.0.0` })).bot.kind).toBe('Electron')
  })

  it('needs two weak hints together', () => {
    const one = signalsOf(browser({ plugins: [] })).bot
    expect(one.result).toBe('notDetected')
    expect(one.reasons[0]).toMatch(/One weak hint/)
    expect(signalsOf(browser({ plugins: [], vendorFlavors: [] })).bot.result).toBe('bad')
  })

  it('treats declared crawlers as good bots', () => {
    const bot = signalsOf(
      browser({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
    ).bot
    expect(bot).toMatchObject({ result: 'good', kind: 'Googlebot' })
  })
})

describe('tampering', () => {
  it('flags replaced native functions', () => {
    const tampering = signalsOf(browser({ nativeFunctions: ['HTMLCanvasElement.toDataURL'] })).tampering
    expect(tampering.result).toBe(true)
    expect(tampering.reasons[0]).toMatch(/HTMLCanvasElement.toDataURL/)
  })

  it('flags contradictions between user agent, platform, client hints, clock and screen', () => {
    const cases: [Record<string, Json>, RegExp][] = [
      [
        { userAgent: chrome.replace('X11; Linux x86_64', 'Windows NT 10.0; Win64; x64') },
        /says Windows but the platform says Linux/,
      ],
      [{ userAgentData: { platform: 'macOS', fullVersionList: [] } }, /client hints say macOS/],
      [
        {
          userAgentData: {
            platform: 'Linux',
            fullVersionList: [{ brand: 'Chromium', version: '120.0.0.0' }],
          },
        },
        /Chrome 156 but the client hints say 120/,
      ],
      [{ timezone: 'Asia/Tokyo', timezoneOffset: 0 }, /Asia\/Tokyo does not match/],
      [
        { windowGeometry: { outer: [3000, 2000], inner: [3000, 1900], position: [0, 0], viewport: 1 } },
        /larger than the screen/,
      ],
    ]
    for (const [change, reason] of cases) {
      const tampering = signalsOf(browser(change)).tampering
      expect(tampering.result, String(reason)).toBe(true)
      expect(tampering.reasons.join(' ')).toMatch(reason)
    }
    expect(signalsOf(browser()).tampering).toEqual({ result: false, reasons: [] })
  })

  it('knows standard offsets of time zones', () => {
    expect(standardOffset('Europe/Berlin')).toBe(-60)
    expect(standardOffset('America/New_York')).toBe(300)
    expect(standardOffset('UTC')).toBe(0)
  })
})

describe('environment signals', () => {
  it('reports a privacy-hardened browser without calling it fraud', () => {
    const signals = signalsOf(browser({ canvas: { randomized: true } }))
    expect(signals.privacyBrowser.result).toBe(true)
    expect(explainSuspectScore(signals).score).toBe(0)
  })

  it('detects a Chromium private window by its small storage quota', () => {
    expect(signalsOf(browser({ storageQuota: 400 })).privateMode.result).toBe(true)
    expect(signalsOf(browser()).privateMode.result).toBe(false)
  })

  it('detects VM-typical renderers', () => {
    const vm = signalsOf(
      browser({
        webglBasics: { renderer: 'x', unmaskedRenderer: 'llvmpipe (LLVM 15.0.6, 256 bits)' },
        hardwareConcurrency: 2,
      }),
    ).virtualMachine
    expect(vm.result).toBe(true)
    expect(vm.reasons).toHaveLength(2)
  })
})

describe('velocity and the suspect score', () => {
  it('counts the current event with the past ones and explains every point', () => {
    const signals = signalsOf(browser({ webdriver: true }), {
      events5m: 25,
      events1h: 40,
      events24h: 40,
      ips5m: ['192.0.2.1'],
      ips1h: ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'],
      ips24h: ['198.51.100.1'],
      linked24h: [],
    })
    expect(signals.velocity.result).toEqual({
      events: { '5m': 26, '1h': 41, '24h': 41 },
      distinctIps: { '5m': 1, '1h': 5, '24h': 2 },
      distinctLinkedIds: { '24h': 0 },
    })
    const explained = explainSuspectScore(signals)
    expect(explained.contributions.map((row) => [row.signal, row.points])).toEqual([
      ['bot', 10],
      ['velocity', 5],
      ['velocity', 5],
    ])
    expect(explained.score).toBe(20)
  })
})

describe('the signals contract (contracts/signals.ts)', () => {
  it('describes exactly what the detectors compute, for an ordinary browser and a suspicious one', () => {
    const evidence = {
      headers: {
        userAgent: chrome,
        acceptLanguage: 'en-US',
        clientHints: null,
        clientHintsMobile: null,
        clientHintsPlatform: null,
      },
      agentProof: 'reused' as const,
      offShape: [],
      forwarding: { untrusted: 2, via: true },
    }
    for (const signals of [
      signalsOf(browser()),
      computeSignals(browser({ webdriver: true, userAgent: chrome.replace('Chrome/', 'HeadlessChrome/') }), {
        ip: '2001:db8::1',
        linkedId: 'account-1',
        visitorId: 'v1',
        evidence,
        blockedNetworks: ['2001:db8::/32'],
        address: {
          address: '2001:db8::1',
          version: 6,
          geolocation: { countryCode: 'JP', region: null, city: 'Tokyo', latitude: 35.7, longitude: 139.7 },
          autonomousSystem: { asn: 64496, organization: 'Example Hosting' },
          torExit: true,
        },
      }),
    ]) {
      // Parsing drops any key the contract does not declare: equal means nothing is undeclared.
      expect(SmartSignals.parse(signals)).toEqual(signals)
      const { ipVelocity: _, ...browserSide } = signals
      expect(BrowserSignals.parse(browserSide)).toEqual(browserSide)
    }
  })

  it("explains a stored event's score even when the event predates most signals", () => {
    const stored = StoredSignals.parse({ bot: { result: 'bad', reasons: ['x'] } })
    expect(explainSuspectScore(stored)).toEqual({
      score: 10,
      contributions: [{ signal: 'bot', points: 10, because: 'a bad bot (automation) is detected' }],
    })
    expect(explainSuspectScore({}).score).toBe(0)
  })
})
