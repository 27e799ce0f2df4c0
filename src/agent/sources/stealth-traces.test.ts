import { describe, expect, it } from 'vitest'
import { type Replacements, withMockedGlobals } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { stealthTraces } from './stealth-traces'

const interfaces = {
  WebGLRenderingContext: 'getParameter',
  WebGL2RenderingContext: 'getParameter',
  Permissions: 'query',
  HTMLMediaElement: 'canPlayType',
  HTMLCanvasElement: 'toDataURL',
} as const

/**
 * An untouched browser: each inspected method a plain function on its prototype, the outer sizes
 * accessors on window, and a detached srcdoc frame without a contentWindow.
 */
function browser() {
  const window: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(interfaces))
    window[name] = { prototype: { [method]: function original() {} } }
  window.HTMLIFrameElement = { prototype: Object.defineProperty({}, 'contentWindow', { get: () => null }) }
  window.Navigator = {
    prototype: Object.defineProperty({}, 'webdriver', { get: () => false, configurable: true }),
  }
  for (const name of ['outerWidth', 'outerHeight'])
    Object.defineProperty(window, name, { get: () => 1280, configurable: true, enumerable: true })
  const frame = { srcdoc: undefined as string | undefined, contentWindow: null as unknown }
  const document = { createElement: () => frame }
  return { window, document, frame }
}

const inspect = ({ window, document }: Replacements) =>
  withMockedGlobals({ window, document }, () => stealthTraces())

describe('stealthTraces', () => {
  it('is an empty list in an untouched browser', () => {
    expect(inspect(browser())).toEqual([])
  })

  it('names natives wrapped in a Proxy, which pass every toString check', () => {
    const patched = browser()
    const webgl = patched.window.WebGLRenderingContext as { prototype: { getParameter: unknown } }
    webgl.prototype.getParameter = new Proxy(webgl.prototype.getParameter as () => void, {})
    const navigator = patched.window.Navigator as { prototype: object }
    Object.defineProperty(navigator.prototype, 'webdriver', { get: new Proxy(() => false, {}) })
    expect(inspect(patched)).toEqual([
      'proxy WebGLRenderingContext.getParameter',
      'proxy navigator.webdriver',
    ])
  })

  it('puts back the prototype of every function it probes', () => {
    const patched = browser()
    const media = patched.window.HTMLMediaElement as { prototype: { canPlayType: object } }
    const proxied = new Proxy(function canPlayType() {}, {})
    media.prototype.canPlayType = proxied
    const before = Object.getPrototypeOf(proxied)
    expect(inspect(patched)).toEqual(['proxy HTMLMediaElement.canPlayType'])
    expect(Object.getPrototypeOf(proxied)).toBe(before)
    expect(Object.getPrototypeOf(Function.prototype.toString)).toBe(Function.prototype)
  })

  it('names outer window sizes overwritten by plain values', () => {
    const patched = browser()
    Object.defineProperty(patched.window, 'outerWidth', { value: 1920 })
    Object.defineProperty(patched.window, 'outerHeight', { value: 1080 })
    expect(inspect(patched)).toEqual(['window.outerWidth value', 'window.outerHeight value'])
  })

  it('names a detached srcdoc frame that has a contentWindow, or whose contentWindow throws', () => {
    const faked = browser()
    faked.frame.contentWindow = {}
    expect(inspect(faked)).toEqual(['iframe.contentWindow'])
    const throwing = browser()
    Object.defineProperty(throwing.frame, 'contentWindow', {
      get() {
        throw new Error('blocked')
      },
    })
    expect(inspect(throwing)).toEqual(['iframe.contentWindow'])
    expect(throwing.frame.srcdoc).toBe('')
  })

  it('skips interfaces the browser does not have', () => {
    const { document } = browser()
    expect(inspect({ window: {}, document })).toEqual([])
  })

  it('fails without a document, and collect records the error', async () => {
    await withMockedGlobals({ window: browser().window }, async () => {
      expect(() => stealthTraces()).toThrow(ReferenceError)
      expect(await collectComponent('stealthTraces')).toEqual({
        error: 'ReferenceError: document is not defined',
        duration: expect.any(Number),
      })
    })
  })
})
