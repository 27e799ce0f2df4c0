import { describe, expect, it } from 'vitest'
import {
  type Replacements,
  withMockedGlobals,
  withMockedProperties,
} from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { nativeFunctions } from './native-functions'

/**
 * A function that prints as native code under the given name, as the browser's own do: a bound
 * function's source is `function () { [native code] }`, and its name can be set.
 */
function native(name: string) {
  const bound = (() => undefined).bind(null)
  return Object.defineProperty(bound, 'name', { value: name })
}

/** A prototype with native getters for `getters` and native methods for `methods`. */
function prototypeWith(getters: string[], methods: string[] = []) {
  const prototype = {}
  for (const name of getters)
    Object.defineProperty(prototype, name, { get: native(`get ${name}`), configurable: true })
  for (const name of methods)
    Object.defineProperty(prototype, name, { value: native(name), configurable: true })
  return prototype
}

/** An untouched browser: the interfaces the source inspects, all native. */
function browser() {
  const Navigator = {
    prototype: prototypeWith([
      'webdriver',
      'languages',
      'plugins',
      'platform',
      'userAgent',
      'vendor',
      'hardwareConcurrency',
      'deviceMemory',
    ]),
  }
  const navigator = Object.create(Navigator.prototype)
  const window = {
    Navigator,
    Screen: { prototype: prototypeWith(['width']) },
    HTMLCanvasElement: { prototype: prototypeWith([], ['toDataURL', 'getContext']) },
    CanvasRenderingContext2D: { prototype: prototypeWith([], ['getImageData']) },
    WebGLRenderingContext: { prototype: prototypeWith([], ['getParameter']) },
    AudioBuffer: { prototype: prototypeWith([], ['getChannelData']) },
    Permissions: { prototype: prototypeWith([], ['query']) },
  }
  return { window, navigator }
}

const inspect = (globals: Replacements = browser()) => withMockedGlobals(globals, () => nativeFunctions())

describe('nativeFunctions', () => {
  it('is an empty list where every inspected function and getter is native', () => {
    expect(inspect()).toEqual([])
  })

  it('names a getter replaced by a script, on the prototype', () => {
    const patched = browser()
    Object.defineProperty(patched.window.Navigator.prototype, 'webdriver', { get: () => false })
    Object.defineProperty(patched.window.Screen.prototype, 'width', {
      get: function width() {
        return 1920
      },
    })
    expect(inspect(patched)).toEqual(['navigator.webdriver', 'screen.width'])
  })

  it('names a native function put in another’s place (the name gives it away)', () => {
    const patched = browser()
    Object.defineProperty(patched.window.HTMLCanvasElement.prototype, 'toDataURL', {
      value: native('getContext'),
    })
    expect(inspect(patched)).toEqual(['HTMLCanvasElement.toDataURL'])
  })

  it('names properties defined on the navigator object itself', () => {
    const patched = browser()
    Object.defineProperty(patched.navigator, 'languages', { value: ['en-US', 'en'] })
    expect(inspect(patched)).toEqual(['navigator (own properties)'])
  })

  it('checks the engine’s own natives too: Date, Intl and Function.prototype.toString', () => {
    function getTimezoneOffset() {
      return 0
    }
    const patchedDate = withMockedProperties(Date.prototype, { getTimezoneOffset }, () => inspect())
    expect(patchedDate).toEqual(['Date.getTimezoneOffset'])

    const originalToString = Function.prototype.toString
    function replacement(this: unknown) {
      return originalToString.call(this)
    }
    const patchedToString = withMockedProperties(
      Function.prototype,
      { toString: Object.defineProperty(replacement, 'name', { value: 'toString' }) },
      () => inspect(),
    )
    expect(patchedToString).toEqual(['Function.toString', 'toString of toString'])
  })

  // Function.prototype.toString reads a revoked callable Proxy as native code, then `fn.name`
  // throws: the function is named, and the rest of the source still runs.
  it('names a function that is a revoked Proxy', () => {
    const patched = browser()
    const { proxy, revoke } = Proxy.revocable(native('getParameter'), {})
    revoke()
    Object.defineProperty(patched.window.WebGLRenderingContext.prototype, 'getParameter', { value: proxy })
    expect(inspect(patched)).toEqual(['WebGLRenderingContext.getParameter'])
  })

  it('skips interfaces the browser does not have', () => {
    const { navigator } = browser()
    expect(inspect({ window: {}, navigator })).toEqual([])
  })

  it('fails without a window, and collect records the error', async () => {
    await withMockedGlobals({ navigator: browser().navigator }, async () => {
      expect(await collectComponent('nativeFunctions')).toEqual({
        error: 'ReferenceError: window is not defined',
        duration: expect.any(Number),
      })
    })
  })
})
