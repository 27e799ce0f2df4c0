import { describe, expect, it } from 'vitest'
import type { ComponentResult, Json } from '@/contracts/identify'
import { detectBot } from './detect-bot'
import { detectTampering } from './detect-tampering'
import { ComponentReader } from './read-components'

const linuxChrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const windowsChrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/** An ordinary desktop Chrome on Linux with nothing patched. */
function reader(overrides: Record<string, Json> = {}) {
  const values: Record<string, Json> = {
    userAgent: linuxChrome,
    platform: 'Linux x86_64',
    webdriver: false,
    automationGlobals: [],
    nativeFunctions: [],
    stealthTraces: [],
    plugins: ['PDF Viewer|application/pdf,text/pdf'],
    vendorFlavors: ['chrome'],
    languages: ['en-US', 'en'],
    permissions: { notification: 'default', query: 'prompt' },
    windowGeometry: { outer: [945, 1060], inner: [945, 917], position: [10, 10], viewport: 1 },
    screen: [1920, 1080],
    webglBasics: { unmaskedRenderer: 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620, OpenGL 4.6)' },
    ...overrides,
  }
  const components: Record<string, ComponentResult> = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, { value, duration: 1 }]),
  )
  return new ComponentReader(components)
}

/** What puppeteer-extra-plugin-stealth 2.11 leaves in headless Chromium 156 (measured by bench:detection). */
const stealth = {
  userAgent: windowsChrome,
  platform: 'Win32',
  stealthTraces: [
    'proxy Function.toString',
    'proxy WebGLRenderingContext.getParameter',
    'proxy Permissions.query',
    'proxy HTMLMediaElement.canPlayType',
    'proxy navigator.hardwareConcurrency',
    'proxy navigator.languages',
    'window.outerWidth value',
    'window.outerHeight value',
    'iframe.contentWindow',
  ],
  permissions: { notification: 'default', query: 'denied' },
  webglBasics: { unmaskedRenderer: 'Intel Iris OpenGL Engine' },
}

describe('stealth-plugin traces', () => {
  it('do not flag an unpatched browser', () => {
    expect(detectBot(reader())).toEqual({ result: 'notDetected', reasons: [] })
    expect(detectTampering(reader())).toEqual({ result: false, reasons: [] })
  })

  it('flag the stealth plugin as automation, and as tampering', () => {
    const bot = detectBot(reader(stealth))
    expect(bot.result).toBe('bad')
    expect(bot.kind).toBe('Stealth automation')
    expect(bot.reasons.join(' ')).toMatch(/fake window object/)
    expect(bot.reasons.join(' ')).toMatch(/Proxies/)
    expect(bot.reasons.join(' ')).toMatch(/default vs denied/)
    const tampering = detectTampering(reader(stealth))
    expect(tampering.result).toBe(true)
    expect(tampering.reasons.join(' ')).toMatch(/Intel Iris OpenGL Engine.*spoofed/)
  })

  it('still flag it when the iframe patch is left out: the other side effects add up', () => {
    const withoutFrame = {
      ...stealth,
      stealthTraces: stealth.stealthTraces.filter((t) => !t.includes('iframe')),
    }
    expect(detectBot(reader(withoutFrame)).result).toBe('bad')
    const proxiesAndGeometry = { stealthTraces: ['proxy Function.toString', 'window.outerWidth value'] }
    expect(detectBot(reader(proxiesAndGeometry)).result).toBe('bad')
  })

  it('treat Proxy-wrapped natives alone as tampering, not as a bot (privacy extensions wrap natives too)', () => {
    const extension = reader({
      stealthTraces: ['proxy Function.toString', 'proxy HTMLCanvasElement.toDataURL'],
    })
    expect(detectBot(extension).result).toBe('notDetected')
    expect(detectTampering(extension)).toMatchObject({ result: true })
    expect(detectTampering(extension).reasons[0]).toMatch(/HTMLCanvasElement.toDataURL/)
  })

  it('flag a Proxy around the automation flag on its own', () => {
    const bot = detectBot(reader({ stealthTraces: ['proxy navigator.webdriver'] }))
    expect(bot).toMatchObject({ result: 'bad', kind: 'Stealth automation' })
  })

  it('read the notification permission as one value seen through two APIs', () => {
    const consistent: [string, string][] = [
      ['default', 'prompt'],
      ['granted', 'granted'],
      ['denied', 'denied'],
    ]
    for (const [notification, query] of consistent) {
      expect(detectBot(reader({ permissions: { notification, query } })).reasons).toEqual([])
    }
    const inconsistent: [string, string][] = [
      ['default', 'denied'],
      ['denied', 'prompt'],
    ]
    for (const [notification, query] of inconsistent) {
      expect(detectBot(reader({ permissions: { notification, query } })).reasons[0]).toMatch(/inconsistently/)
    }
  })

  it('accept the WebGL renderers real browsers report', () => {
    const renderers: [string, string][] = [
      [
        linuxChrome,
        'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
        'Mali-G715',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', 'llvmpipe, or similar'],
    ]
    for (const [userAgent, unmaskedRenderer] of renderers) {
      expect(
        detectTampering(reader({ userAgent, webglBasics: { unmaskedRenderer } })).result,
        userAgent,
      ).toBe(false)
    }
  })
})
