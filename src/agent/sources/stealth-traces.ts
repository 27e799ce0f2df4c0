type Target = [label: string, owner: object | undefined, property: string]

function targets(): Target[] {
  const w = window as unknown as Record<string, { prototype?: object } | undefined>
  const proto = (name: string) => w[name]?.prototype
  const nav = proto('Navigator')
  return [
    ['Function.toString', Function.prototype, 'toString'],
    ['WebGLRenderingContext.getParameter', proto('WebGLRenderingContext'), 'getParameter'],
    ['WebGL2RenderingContext.getParameter', proto('WebGL2RenderingContext'), 'getParameter'],
    ['Permissions.query', proto('Permissions'), 'query'],
    ['HTMLMediaElement.canPlayType', proto('HTMLMediaElement'), 'canPlayType'],
    ['HTMLCanvasElement.toDataURL', proto('HTMLCanvasElement'), 'toDataURL'],
    ['HTMLIFrameElement.contentWindow', proto('HTMLIFrameElement'), 'contentWindow'],
    ['navigator.webdriver', nav, 'webdriver'],
    ['navigator.hardwareConcurrency', nav, 'hardwareConcurrency'],
    ['navigator.languages', nav, 'languages'],
    ['navigator.plugins', nav, 'plugins'],
    ['navigator.platform', nav, 'platform'],
    ['navigator.userAgent', nav, 'userAgent'],
    ['navigator.vendor', nav, 'vendor'],
  ]
}

/**
 * A Proxy around a native function passes every toString check (stealth plugins proxy
 * toString itself), but hides a prototype cycle: a native function refuses to become its own
 * prototype's prototype with a TypeError, a Proxy accepts it (or overflows the stack).
 */
function isProxy(fn: unknown): boolean {
  if (typeof fn !== 'function') return false
  const original = Object.getPrototypeOf(fn)
  try {
    Object.setPrototypeOf(fn, Object.create(fn))
    return true
  } catch (error) {
    return !(error instanceof TypeError)
  } finally {
    try {
      Object.setPrototypeOf(fn, original)
    } catch {}
  }
}

/**
 * The stealth plugin wraps document.createElement so that a frame given a srcdoc gets a fake
 * contentWindow while still detached, where a real frame has none. Nothing is attached to the
 * page: creating a frame's document would cost about 18 ms.
 */
function hasFakeFrameWindow(): boolean {
  const frame = document.createElement('iframe')
  frame.srcdoc = ''
  try {
    return frame.contentWindow !== null
  } catch {
    return true
  }
}

/**
 * Side effects of the patches that stealth plugins apply to hide automation: natives wrapped in
 * Proxies, window sizes overwritten by plain values, and a faked contentWindow for srcdoc frames.
 */
export function stealthTraces(): string[] {
  const found: string[] = []
  for (const [label, owner, property] of targets()) {
    const descriptor = owner && Object.getOwnPropertyDescriptor(owner, property)
    if (descriptor && isProxy(descriptor.get ?? descriptor.value)) found.push(`proxy ${label}`)
  }
  // outerWidth/outerHeight are accessors on window; an assignment turns them into data properties.
  for (const name of ['outerWidth', 'outerHeight']) {
    const descriptor = Object.getOwnPropertyDescriptor(window, name)
    if (descriptor && 'value' in descriptor) found.push(`window.${name} value`)
  }
  if (hasFakeFrameWindow()) found.push('iframe.contentWindow')
  return found
}
