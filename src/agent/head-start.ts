import { type CollectResult, collect } from './collect'

/** How long a collection made ahead of get() is used for it (ms). */
const FRESH_MS = 30_000
/** requestIdleCallback's deadline: on a page that is never idle, collection starts by then (ms). */
const IDLE_DEADLINE_MS = 1_000

type IdleScheduler = (callback: () => void, options: { timeout: number }) => number

export interface HeadStart {
  /** The collection started ahead for the first get(), if it started and is fresh; once. */
  take(): Promise<CollectResult> | undefined
  /** Nothing more starts (a frame unmounted). */
  cancel(): void
}

/**
 * Starts collecting when the page is idle, once its document is parsed (fonts are measured in its
 * body), so the first get() mostly waits for work already done and the page's own start-up goes
 * first. A get() that comes before that moment collects for itself, and nothing is collected twice.
 */
export function collectWhenIdle({
  now = () => performance.now(),
  run = collect,
}: {
  now?: () => number
  run?: () => Promise<CollectResult>
} = {}): HeadStart {
  let started: { at: number; result: Promise<CollectResult> } | undefined
  let stopped = false
  const start = () => {
    if (!started && !stopped) started = { at: now(), result: run() }
  }
  const whenIdle = () => {
    const idle = (globalThis as { requestIdleCallback?: IdleScheduler }).requestIdleCallback
    if (typeof idle === 'function') idle(start, { timeout: IDLE_DEADLINE_MS })
    else setTimeout(start, 0)
  }
  if (typeof document !== 'undefined' && document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', whenIdle, { once: true })
  else whenIdle()
  return {
    take() {
      if (stopped) return undefined
      stopped = true
      if (!started || now() - started.at > FRESH_MS) return undefined
      return started.result
    },
    cancel() {
      stopped = true
    },
  }
}
