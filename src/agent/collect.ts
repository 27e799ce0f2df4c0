import { intlWarming, warmUpIntl } from './intl-warm-up'
import { type SourceName, sources, startAfter } from './sources'

/** One collected signal: its value, or why it could not be read; always how long it took (ms). */
export type Component<Value> = { value: Value; duration: number } | { error: string; duration: number }

/**
 * What a source gives: a stepped source (a generator, see collect) gives its return value, which
 * may itself be a promise (steps to set work going, then an answer to wait for).
 */
type SourceValue<Result> =
  Result extends Generator<unknown, infer Value, unknown> ? Awaited<Value> : Awaited<Result>

/** Every signal's component, typed from the registry. */
export type Components = {
  [Name in SourceName]: Component<SourceValue<ReturnType<(typeof sources)[Name]>>>
}

export interface CollectResult {
  components: Components
  /** Total collection time in milliseconds. */
  duration: number
  /**
   * How much of it held the page's main thread (ms), and its longest stretch without a break: the
   * rest was spent waiting for the browser (audio, permissions, storage), with the page free.
   */
  mainThread: { total: number; longest: number }
}

export type Source = () => unknown

export interface CollectOptions {
  /**
   * Longest time one asynchronous source may take before it is recorded as timed out (ms).
   * @default 400
   */
  sourceTimeout?: number
  /**
   * Hard deadline for the whole collection (ms); unfinished sources are recorded as timed out.
   * @default 1500
   */
  deadline?: number
  /**
   * Longest stretch of work before the page gets the main thread back (ms). `Infinity` never
   * yields (the values are the same either way; a test proves it).
   * @default 8
   */
  slice?: number
  /**
   * Loads Intl's data in a worker started from a blob: URL first, off the main thread, which takes
   * the agent's longest task away (intl-warm-up.ts). Only for a page whose Content-Security-Policy
   * allows `worker-src blob:` (or that has none): under one that does not, the browser refuses the
   * worker and reports a violation. The /frame collector sets it (Tessera's own CSP allows it).
   * @default false
   */
  intlWorker?: boolean
  /**
   * Replaces or adds sources, by name. For tests and diagnostics; not needed in production.
   * @default undefined
   */
  sources?: Record<string, Source>
}

function now(): number {
  return performance.now()
}

type Scheduler = { yield?: () => Promise<void> }

/**
 * Lets the browser paint and handle input between slices of synchronous work: scheduler.yield()
 * where it exists (the rest of the collection keeps its place in line), else a message port
 * rather than setTimeout(0), which browsers clamp to 4 ms once nested.
 */
function yieldToBrowser(inLine: boolean): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  if (inLine && scheduler?.yield) return scheduler.yield()
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    channel.port2.postMessage(null)
  })
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300)
  return String(error).slice(0, 300)
}

const isStepped = (result: unknown): result is Generator<unknown, unknown, unknown> =>
  typeof result === 'object' &&
  result !== null &&
  typeof (result as Generator).next === 'function' &&
  typeof (result as Generator).throw === 'function'

/**
 * Runs every source, isolating each one's failure and time: a throwing, slow or hanging source
 * becomes `{ error, duration }` and never holds up the others beyond the deadline. The page keeps
 * its main thread: the work runs in slices of about `slice` ms, between sources and, for a stepped
 * source (a generator: fonts, canvas), between its steps. A stepped source runs to its end like a
 * synchronous one, whatever the time-outs, so slicing never changes a value; one that ends in a
 * promise (audio: the graph built in steps, then its rendering) waits for it under the time-out.
 */
export async function collect(options: CollectOptions = {}): Promise<CollectResult> {
  const sourceTimeout = options.sourceTimeout ?? 400
  const deadline = options.deadline ?? 1500
  const slice = options.slice ?? 8
  const registry: Record<string, Source> = { ...sources, ...options.sources }
  const started = now()
  if (options.intlWorker) warmUpIntl()
  const components: Record<string, Component<unknown>> = {}
  const pending: Promise<void>[] = []
  let busy = 0
  let longest = 0

  const record = (name: string, duration: number, outcome: { value: unknown } | { error: string }) => {
    components[name] ??= { ...outcome, duration: Math.round(duration * 10) / 10 }
  }

  let sliceStart = now()
  /** Counts the stretch of work since the last break as main-thread time. */
  const endStretch = () => {
    const stretch = now() - sliceStart
    busy += stretch
    longest = Math.max(longest, stretch)
  }
  let breaks = 0
  /**
   * Gives the main thread back once the current stretch of work is over its slice. While the Intl
   * worker starts (intl-warm-up.ts), every third break goes to the end of the line (a message task),
   * where the turns its start needs wait behind scheduler.yield's continuations.
   */
  const breathe = async (always = false) => {
    if (!always && now() - sliceStart <= slice) return
    endStretch()
    await yieldToBrowser(!intlWarming() || ++breaks % 3 !== 0)
    sliceStart = now()
  }

  // The caller's task (a page's script, its parse) ends before the first source: the two together
  // were one long task.
  if (slice < Number.POSITIVE_INFINITY) await breathe(true)
  /** Waits for an asynchronous source's answer in the background, up to its time-out. */
  const answer = (name: string, begin: number, result: Promise<unknown>) => {
    pending.push(
      Promise.race([
        result.then(
          (value) => record(name, now() - begin, { value }),
          (error) => record(name, now() - begin, { error: describe(error) }),
        ),
        new Promise<void>((resolve) =>
          setTimeout(() => {
            record(name, now() - begin, { error: `Timeout: no answer within ${sourceTimeout} ms` })
            resolve()
          }, sourceTimeout),
        ),
      ]),
    )
  }

  for (const [name, source] of Object.entries(registry)) {
    await breathe()
    const begin = now()
    try {
      const result = source()
      if (isStepped(result)) {
        // Its own time only: the breaks in between are the page's.
        let spent = 0
        let stepStart = begin
        try {
          let step = result.next()
          while (!step.done) {
            spent += now() - stepStart
            await breathe()
            stepStart = now()
            step = result.next()
          }
          if (step.value instanceof Promise) answer(name, begin, step.value)
          else record(name, spent + now() - stepStart, { value: step.value })
        } finally {
          // Ended early (a throw outside its own steps): its clean-up still runs.
          result.return(undefined)
        }
      } else if (result instanceof Promise) {
        answer(name, begin, result)
      } else {
        record(name, now() - begin, { value: result })
      }
    } catch (error) {
      record(name, now() - begin, { error: describe(error) })
    }
    startAfter[name as SourceName]?.()
  }
  endStretch()

  const remaining = Math.max(0, deadline - (now() - started))
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, remaining))])
  for (const name of Object.keys(registry)) {
    if (!components[name])
      components[name] = { error: `Timeout: collection deadline of ${deadline} ms`, duration: deadline }
  }
  return {
    components: components as Components,
    duration: Math.round((now() - started) * 10) / 10,
    mainThread: { total: Math.round(busy * 10) / 10, longest: Math.round(longest * 10) / 10 },
  }
}
