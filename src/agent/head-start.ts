import { type CollectResult, collect } from './collect'

/** How long a collection made ahead of get() is used for it (ms). */
const FRESH_MS = 30_000
/** requestIdleCallback's deadline: on a page that is never idle, collection starts by then (ms). */
const IDLE_DEADLINE_MS = 1_000

type IdleScheduler = (callback: () => void, options: { timeout: number }) => number

export interface HeadStart {
  /** The collection started ahead for the first get(), if it started and is fresh; once. */
  take(): Promise<CollectResult> | undefined
}

/**
 * Starts collecting when the page is idle (load() calls it), so the first get() mostly waits for
 * work already done, and the page's own start-up goes first. A get() that comes before the idle
 * moment collects for itself, and nothing is collected twice.
 */
export function collectWhenIdle(now: () => number = () => performance.now()): HeadStart {
  let started: { at: number; result: Promise<CollectResult> } | undefined
  let taken = false
  const start = () => {
    if (!started && !taken) started = { at: now(), result: collect() }
  }
  const idle = (globalThis as { requestIdleCallback?: IdleScheduler }).requestIdleCallback
  if (typeof idle === 'function') idle(start, { timeout: IDLE_DEADLINE_MS })
  else setTimeout(start, 0)
  return {
    take() {
      if (taken) return undefined
      taken = true
      if (!started || now() - started.at > FRESH_MS) return undefined
      return started.result
    },
  }
}
