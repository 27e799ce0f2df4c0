type Target = [label: string, owner: object | undefined, property: string, getter: boolean]

function targets(): Target[] {
  const w = window as unknown as Record<string, { prototype?: object } | undefined>
  const proto = (name: string) => w[name]?.prototype
  return [
    ['navigator.webdriver', proto('Navigator'), 'webdriver', true],
    ['navigator.languages', proto('Navigator'), 'languages', true],
    ['navigator.plugins', proto('Navigator'), 'plugins', true],
    ['navigator.platform', proto('Navigator'), 'platform', true],
    ['navigator.userAgent', proto('Navigator'), 'userAgent', true],
    ['navigator.vendor', proto('Navigator'), 'vendor', true],
    ['navigator.hardwareConcurrency', proto('Navigator'), 'hardwareConcurrency', true],
    ['navigator.deviceMemory', proto('Navigator'), 'deviceMemory', true],
    ['screen.width', proto('Screen'), 'width', true],
    ['HTMLCanvasElement.toDataURL', proto('HTMLCanvasElement'), 'toDataURL', false],
    ['HTMLCanvasElement.getContext', proto('HTMLCanvasElement'), 'getContext', false],
    ['CanvasRenderingContext2D.getImageData', proto('CanvasRenderingContext2D'), 'getImageData', false],
    ['WebGLRenderingContext.getParameter', proto('WebGLRenderingContext'), 'getParameter', false],
    ['AudioBuffer.getChannelData', proto('AudioBuffer'), 'getChannelData', false],
    ['Date.getTimezoneOffset', Date.prototype, 'getTimezoneOffset', false],
    ['Intl.DateTimeFormat.resolvedOptions', Intl.DateTimeFormat.prototype, 'resolvedOptions', false],
    ['Permissions.query', proto('Permissions'), 'query', false],
    ['Function.toString', Function.prototype, 'toString', false],
  ]
}

const nativeSource = /^function [\w$ ]*\(\) \{\s*\[native code\]\s*\}$/

function isNative(fn: unknown, expectedName: string): boolean {
  if (typeof fn !== 'function') return true
  try {
    // A revoked Proxy still prints as native code, then throws on reading its name.
    const source = Function.prototype.toString.call(fn)
    return nativeSource.test(source) && (fn.name === expectedName || fn.name === `get ${expectedName}`)
  } catch {
    // A Proxy around a non-function, or a revoked one.
    return false
  }
}

/**
 * Native functions and property getters that were replaced (anti-detect tools and stealth
 * plugins patch them): non-native source, a wrong name, or a property moved onto the instance.
 */
export function nativeFunctions(): string[] {
  const replaced: string[] = []
  for (const [label, owner, property, getter] of targets()) {
    if (!owner) continue
    const descriptor = Object.getOwnPropertyDescriptor(owner, property)
    const fn = getter ? descriptor?.get : descriptor?.value
    if (descriptor && !isNative(fn, property)) replaced.push(label)
  }
  if (Object.getOwnPropertyNames(navigator).length > 0) replaced.push('navigator (own properties)')
  // Function.prototype.toString must describe itself as native too.
  if (!nativeSource.test(Function.prototype.toString.call(Function.prototype.toString)))
    replaced.push('toString of toString')
  return replaced
}
