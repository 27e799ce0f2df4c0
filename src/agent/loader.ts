import { collect } from './collect'
import { collectWhenIdle } from './head-start'
import { identify } from './identify'
import { type FrameMessage, type IdentifyResult, isFrameMessage, type LoaderMessage } from './messages'

export type { IdentifyResult }

export interface LoadOptions {
  /**
   * The public site key from the console. Required with an `endpoint` on another origin; a page
   * served by Tessera itself may leave it out (its default site).
   */
  siteKey?: string
  /**
   * The Tessera server's origin, e.g. https://tessera.example.com.
   * @default the current page's origin
   */
  endpoint?: string
  /**
   * Path of the agent's API on `endpoint` when it is not Tessera's own: the server's
   * TESSERA_API_PREFIX, or the path your proxy serves Tessera's API under (first-party serving).
   * Used when `endpoint` is the page's own origin; the /frame collector knows its own.
   * @default '/api/v1'
   */
  apiPrefix?: string
  /**
   * How long to wait for the collector frame before giving up (ms).
   * @default 10000
   */
  timeout?: number
  /**
   * Start collecting as soon as the page is idle, so the first get() answers sooner. Set it to
   * false to read nothing of the browser before get() (a page that waits for the visitor's consent).
   * Nothing is sent before get() either way.
   * @default true
   */
  collectEarly?: boolean
  /**
   * On a page whose Content-Security-Policy allows `worker-src blob:`, or that has none: load Intl's
   * data in a worker first, which takes the agent's longest main-thread task away (on a CPU slowed
   * 4×, 85–160 ms). Under a CSP that does not allow it, leave it off: the browser would refuse the
   * worker and report a violation. Through /frame it is always on (Tessera's CSP allows it).
   * @default false
   */
  intlWorker?: boolean
}

export interface GetOptions {
  /** Your own data to store with this identification event. */
  tag?: Record<string, unknown>
  /** Your identifier for this visitor, e.g. an account ID. */
  linkedId?: string
  /**
   * Also return what was collected (`result.collection`: every signal with its value and
   * duration), e.g. to show visitors what their browser gives away.
   * @default false
   */
  withCollection?: boolean
}

export interface Agent {
  /** Identifies the browser; resolves to the visitor ID, a request ID for your back end, and more. */
  get(options?: GetOptions): Promise<IdentifyResult>
}

/**
 * Prepares the agent. On Tessera's own origin it collects directly; elsewhere it loads the
 * invisible /frame collector and talks to it with postMessage, to that exact origin only. Either
 * way collection starts as soon as the page is idle, so the first get() finds it done or under way.
 */
export async function load(options: LoadOptions): Promise<Agent> {
  const endpoint = new URL(options.endpoint ?? window.location.origin).origin
  if (endpoint === window.location.origin) {
    // Collection starts when the page is idle, so the first get() finds it done or under way.
    const run = () => collect({ intlWorker: options.intlWorker })
    const headStart = options.collectEarly === false ? undefined : collectWhenIdle({ run })
    return {
      get: (get = {}) =>
        identify({
          collection: headStart?.take(),
          endpoint,
          apiPrefix: options.apiPrefix,
          siteKey: options.siteKey,
          url: window.location.href,
          ...get,
        }),
    }
  }
  if (!options.siteKey) throw new Error('Tessera: load() needs the siteKey from the console.')
  return loadFrame(endpoint, options.siteKey, options.timeout ?? 10_000, options.collectEarly !== false)
}

function loadFrame(
  endpoint: string,
  siteKey: string,
  timeout: number,
  collectEarly: boolean,
): Promise<Agent> {
  const frame = document.createElement('iframe')
  frame.src = `${endpoint}/frame?siteKey=${encodeURIComponent(siteKey)}`
  // The frame's request names this page's origin (not its path) even where the page sends no
  // Referer: a disallowed origin then gets its refusal at once, not the time-out.
  frame.referrerPolicy = 'strict-origin'
  frame.title = 'Tessera device check'
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  frame.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden'
  const waiting = new Map<string, { resolve(result: IdentifyResult): void; reject(error: Error): void }>()
  let counter = 0

  const send = (message: LoaderMessage) => frame.contentWindow?.postMessage(message, endpoint)

  return new Promise<Agent>((resolve, reject) => {
    let ready = false
    let hello: ReturnType<typeof setInterval> | undefined
    const giveUp = (why: string) => {
      clearTimeout(fail)
      clearInterval(hello)
      window.removeEventListener('message', onMessage)
      frame.remove()
      reject(new Error(`Tessera: ${why}`))
    }
    const fail = setTimeout(
      () =>
        giveUp(
          `the collector at ${endpoint} did not answer within ${timeout} ms. Is this page's origin (${window.location.origin}) allowed for site key ${siteKey}?`,
        ),
      timeout,
    )

    function onMessage(event: MessageEvent) {
      // Only our own frame, from the Tessera origin, in the protocol's shape.
      if (event.origin !== endpoint || event.source !== frame.contentWindow || !isFrameMessage(event.data))
        return
      const message: FrameMessage = event.data
      if (message.tessera === 'refused') {
        if (!ready)
          giveUp(
            message.reason === 'site'
              ? `${endpoint} knows no site with the key ${siteKey}: copy the site key from its console.`
              : `this page's origin (${window.location.origin}) is not allowed for site key ${siteKey}: add it to the site's allowed origins in the console.`,
          )
        return
      }
      if (message.tessera === 'ready') {
        if (ready) return
        ready = true
        clearTimeout(fail)
        clearInterval(hello)
        resolve({
          get: (get = {}) =>
            new Promise<IdentifyResult>((resolveGet, rejectGet) => {
              const id = `${Date.now().toString(36)}-${++counter}`
              waiting.set(id, { resolve: resolveGet, reject: rejectGet })
              send({ tessera: 'get', id, url: window.location.href, ...get })
            }),
        })
        return
      }
      const entry = waiting.get(message.id)
      if (!entry) return
      waiting.delete(message.id)
      if (message.tessera === 'result') entry.resolve(message.result)
      else entry.reject(new Error(`Tessera: ${message.message}`))
    }

    window.addEventListener('message', onMessage)
    frame.addEventListener('load', () => {
      // The frame answers "ready" only to an origin its site allows.
      send({ tessera: 'hello', siteKey, collectEarly })
      hello = setInterval(() => send({ tessera: 'hello', siteKey, collectEarly }), 250)
    })
    document.body.appendChild(frame)
  })
}
