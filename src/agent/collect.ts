import { type SourceName, sources } from './sources'

/** One collected signal: its value, or why it could not be read; always how long it took (ms). */
export type Component<Value> = { value: Value; duration: number } | { error: string; duration: number }

/** Every signal's component, typed from the registry. */
export type Components = {
  [Name in SourceName]: Component<Awaited<ReturnType<(typeof sources)[Name]>>>
}

export interface CollectResult {
  components: Components
  /** Total collection time in milliseconds. */
  duration: number
}

export type Source = () => unknown

export interface CollectOptions {
  /**
   * Longest time one source may take before it is recorded as timed out (ms).
   * @default 400
   */
  sourceTimeout?: number
  /**
   * Hard deadline for the whole collection (ms); unfinished sources are recorded as timed out.
   * @default 1500
   */
  deadline?: number
  /**
   * Replaces or adds sources, by name. For tests and diagnostics; not needed in production.
   * @default undefined
   */
  sources?: Record<string, Source>
}

const SLICE_MS = 8

function now(): number {
  return performance.now()
}

type Scheduler = { yield?: () => Promise<void> }

/**
 * Lets the browser paint and handle input between slices of synchronous work. A message port
 * rather than setTimeout(0), which browsers clamp to 4 ms once nested.
 */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  if (scheduler?.yield) return scheduler.yield()
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

/**
 * Runs every source, isolating each one's failure and time: a throwing, slow or hanging source
 * becomes `{ error, duration }` and never holds up the others beyond the deadline.
 */
export async function collect(options: CollectOptions = {}): Promise<CollectResult> {
  const sourceTimeout = options.sourceTimeout ?? 400
  const deadline = options.deadline ?? 1500
  const registry: Record<string, Source> = { ...sources, ...options.sources }
  const started = now()
  const components: Record<string, Component<unknown>> = {}
  const pending: Promise<void>[] = []

  const record = (name: string, begin: number, outcome: { value: unknown } | { error: string }) => {
    components[name] ??= { ...outcome, duration: Math.round((now() - begin) * 10) / 10 }
  }

  let sliceStart = now()
  for (const [name, source] of Object.entries(registry)) {
    if (now() - sliceStart > SLICE_MS) {
      await yieldToBrowser()
      sliceStart = now()
    }
    const begin = now()
    try {
      const result = source()
      if (result instanceof Promise) {
        pending.push(
          Promise.race([
            result.then(
              (value) => record(name, begin, { value }),
              (error) => record(name, begin, { error: describe(error) }),
            ),
            new Promise<void>((resolve) =>
              setTimeout(() => {
                record(name, begin, { error: `Timeout: no answer within ${sourceTimeout} ms` })
                resolve()
              }, sourceTimeout),
            ),
          ]),
        )
      } else {
        record(name, begin, { value: result })
      }
    } catch (error) {
      record(name, begin, { error: describe(error) })
    }
  }

  const remaining = Math.max(0, deadline - (now() - started))
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, remaining))])
  for (const name of Object.keys(registry)) {
    if (!components[name])
      components[name] = { error: `Timeout: collection deadline of ${deadline} ms`, duration: deadline }
  }
  return { components: components as Components, duration: Math.round((now() - started) * 10) / 10 }
}
