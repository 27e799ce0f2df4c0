/**
 * Self-restoring mocks of browser globals for unit tests, after fingerprintjs's withMockProperties
 * and withMockMatchMedia: each replaces properties for one callback, synchronous or asynchronous,
 * and puts back exactly what was there — a value, a getter, or nothing at all — also when the
 * callback throws or rejects.
 *
 * Vitest runs unit tests in Node, where `window`, `navigator`, `screen` and `document` do not
 * exist: these helpers create them for the callback (and remove them after), so an agent source
 * reads only what its test wrote.
 */

/** Makes a property missing for the callback (`'deviceMemory' in navigator` is false). */
export const absent: unique symbol = Symbol('absent')

const getterOf = Symbol('getter')

/** An accessor in place of a value; `getter(() => { throw … })` is an API that refuses to answer. */
export interface Getter {
  readonly [getterOf]: (this: unknown) => unknown
}

/** Replaces a property by an accessor that runs `read` on every access (`this` is the receiver). */
export function getter<Receiver = unknown>(read: (this: Receiver) => unknown): Getter {
  return { [getterOf]: read as (this: unknown) => unknown }
}

/** Property name → its value for the callback, `absent`, or a `getter(…)`. */
export type Replacements = Record<string, unknown>

function isGetter(replacement: unknown): replacement is Getter {
  return typeof replacement === 'object' && replacement !== null && getterOf in replacement
}

function descriptorOf(replacement: unknown): PropertyDescriptor {
  if (isGetter(replacement)) return { get: replacement[getterOf], configurable: true, enumerable: true }
  return { value: replacement, writable: true, configurable: true, enumerable: true }
}

/**
 * Applies the replacements to `target` and answers the function that undoes them: each property
 * gets back its own descriptor (getters included), and one that did not exist is deleted again.
 * (A property deleted and put back may move in key order; nothing here depends on that order.)
 * A replacement that cannot be made undoes those already made before it throws.
 */
function replaceProperties(target: object, replacements: Replacements): () => void {
  const saved: [string, PropertyDescriptor | undefined][] = []
  let restored = false
  const restore = () => {
    if (restored) return
    restored = true
    for (const [name, descriptor] of saved.reverse()) {
      if (descriptor) Object.defineProperty(target, name, descriptor)
      else Reflect.deleteProperty(target, name)
    }
  }
  try {
    for (const [name, replacement] of Object.entries(replacements)) {
      saved.push([name, Object.getOwnPropertyDescriptor(target, name)])
      if (replacement === absent) {
        if (!Reflect.deleteProperty(target, name)) throw new TypeError(`${name} cannot be deleted`)
        // Deleting an own property does not remove one its prototype defines: say so, do not
        // pretend the API is missing.
        if (name in target) throw new TypeError(`${name} is inherited: mock it on the prototype`)
      } else {
        Object.defineProperty(target, name, descriptorOf(replacement))
      }
    }
  } catch (error) {
    restore()
    throw error
  }
  return restore
}

/** Runs the callback, then `restore` — after a returned value, a throw, or a settled promise. */
function runThenRestore<Result>(callback: () => Result, restore: () => void): Result {
  let result: Result
  try {
    result = callback()
  } catch (error) {
    restore()
    throw error
  }
  if (result instanceof Promise) return result.finally(restore) as Result
  restore()
  return result
}

/** Replaces properties of any object for the duration of the callback. */
export function withMockedProperties<Result>(
  target: object,
  replacements: Replacements,
  callback: () => Result,
): Result {
  return runThenRestore(callback, replaceProperties(target, replacements))
}

/** Replaces globals (`Intl`, `AudioContext: absent`, `MediaSource`…) for the duration of the callback. */
export function withMockedGlobals<Result>(replacements: Replacements, callback: () => Result): Result {
  return withMockedProperties(globalThis, replacements, callback)
}

const globals = globalThis as Record<string, unknown>

/**
 * Replaces properties of the global object `name` (navigator, screen, document), creating it as a
 * plain object for the callback where the environment has none.
 */
function withMockedGlobalObject<Result>(
  name: string,
  replacements: Replacements,
  callback: () => Result,
): Result {
  const existing = globals[name]
  if (typeof existing === 'object' && existing !== null)
    return withMockedProperties(existing, replacements, callback)
  return withMockedGlobals({ [name]: {} }, () =>
    withMockedProperties(globals[name] as object, replacements, callback),
  )
}

/** Replaces properties of `navigator` (a plain object in Node) for the duration of the callback. */
export function withMockedNavigator<Result>(replacements: Replacements, callback: () => Result): Result {
  return withMockedGlobalObject('navigator', replacements, callback)
}

/** Replaces properties of `document` (a plain object in Node) for the duration of the callback. */
export function withMockedDocument<Result>(replacements: Replacements, callback: () => Result): Result {
  return withMockedGlobalObject('document', replacements, callback)
}

/**
 * Replaces properties of `window`. As in a browser, `window` is the global object: in Node it is
 * created as `globalThis` for the callback, so `window.matchMedia` and a bare `matchMedia` agree.
 */
export function withMockedWindow<Result>(replacements: Replacements, callback: () => Result): Result {
  if (typeof globals.window === 'object' && globals.window !== null)
    return withMockedProperties(globals.window, replacements, callback)
  return withMockedGlobals({ window: globalThis }, () =>
    withMockedProperties(globalThis, replacements, callback),
  )
}

/** Replaces properties of `window.screen` (a plain object in Node) for the duration of the callback. */
export function withMockedScreen<Result>(replacements: Replacements, callback: () => Result): Result {
  return withMockedWindow({}, () => {
    const window = globals.window as Record<string, unknown>
    if (typeof window.screen === 'object' && window.screen !== null)
      return withMockedProperties(window.screen, replacements, callback)
    return withMockedProperties(window, { screen: {} }, () =>
      withMockedProperties(window.screen as object, replacements, callback),
    )
  })
}

/**
 * Media features and the value each matches, as CSS writes them: `{ 'prefers-color-scheme': 'dark' }`;
 * a list where several match (a P3 screen matches `(color-gamut: srgb)` too).
 */
export type MediaFeatures = Record<string, string | number | readonly (string | number)[]>

/**
 * A `matchMedia` that answers single-feature queries, `(feature: value)`, from a table: a feature
 * the table does not list matches no value, as a browser that does not know the feature.
 */
export function fakeMatchMedia(features: MediaFeatures): (query: string) => MediaQueryList {
  return (query: string) => {
    const parsed = /^\(\s*([a-z-]+)\s*:\s*([\w.-]+)\s*\)$/.exec(query)
    if (!parsed) throw new SyntaxError(`fakeMatchMedia answers (feature: value) queries only, not ${query}`)
    const [, feature = '', value = ''] = parsed
    const listed = features[feature]
    const matches = listed !== undefined && [listed].flat().map(String).includes(value)
    return { matches, media: query } as MediaQueryList
  }
}

/** Gives `window.matchMedia` the answers of `features` for the duration of the callback. */
export function withMockedMedia<Result>(features: MediaFeatures, callback: () => Result): Result {
  return withMockedWindow({ matchMedia: fakeMatchMedia(features) }, callback)
}

/**
 * Gives Intl another default locale and time zone for the callback, as a browser set up so would
 * have: the real Intl formats (ICU), only what `Intl.DateTimeFormat()` and `Intl.NumberFormat()`
 * fall back to is swapped. They work with and without `new`, as the originals do.
 */
export function withIntlDefaults<Result>(
  defaults: { locale?: string; timeZone?: string },
  callback: () => Result,
): Result {
  const { DateTimeFormat, NumberFormat } = Intl
  function DefaultDateTimeFormat(locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) {
    return new DateTimeFormat(locales ?? defaults.locale, { timeZone: defaults.timeZone, ...options })
  }
  function DefaultNumberFormat(locales?: Intl.LocalesArgument, options?: Intl.NumberFormatOptions) {
    return new NumberFormat(locales ?? defaults.locale, options)
  }
  return withMockedProperties(
    Intl,
    { DateTimeFormat: DefaultDateTimeFormat, NumberFormat: DefaultNumberFormat },
    callback,
  )
}
