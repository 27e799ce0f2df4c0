import { errorCode, log } from '../log'

/**
 * What a batch answers for each of its jobs: a result, or the key (a visitor ID) of an earlier
 * job in the same batch that must be stored first; the job then runs again in a later batch.
 */
export type BatchOutcome<Result> = { result: Result } | { blockedBy: string }

export interface BatchQueueOptions {
  /** Most jobs in one batch. */
  maxBatch: number
  /** Most jobs queued at once; beyond it `tooBusy()` is thrown at once. */
  maxQueued: number
  /** Most jobs waiting on one key; beyond it the newest is rejected with `tooFast()`. */
  maxBlockedPerKey: number
  tooBusy(): Error
  tooFast(): Error
  /** The error for a job whose signal aborted (its client hung up) before its batch took it. */
  gone(): Error
  /**
   * Waits before each batch until what arrived meanwhile has been read (at least one turn of the
   * event loop); by default exactly one turn.
   */
  beforeBatch?(): Promise<void>
}

interface Entry<Job, Result> {
  job: Job
  resolve(result: Result): void
  reject(error: unknown): void
  /** In a queue (fresh or blocked), not yet taken into a batch: the only time it can be dropped. */
  waiting: boolean
  signal?: AbortSignal
}

/**
 * Group commit: jobs that arrive while a batch runs form the next batch, so a busy server pays a
 * statement's fixed cost once per batch; an idle one runs each job at once.
 *
 * Fairness: a job blocked by an earlier job of its batch waits in a queue of its own key, and a
 * batch takes at most one job per blocked key before the first-come jobs. A device that sends
 * faster than batches complete is served one request per batch, and everyone else keeps moving.
 *
 * A job submitted with an AbortSignal (its client's connection) is dropped if the signal aborts
 * while it waits: it is never run, and its place is freed at once. Once taken into a batch it runs.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

export function createBatchQueue<Job, Result>(
  runBatch: (jobs: Job[]) => Promise<BatchOutcome<Result>[]>,
  options: BatchQueueOptions,
) {
  const fresh: Entry<Job, Result>[] = []
  const blocked = new Map<string, Entry<Job, Result>[]>()
  let queued = 0
  let running = false

  function block(entry: Entry<Job, Result>, key: string) {
    if (entry.signal?.aborted) return entry.reject(options.gone())
    const entries = (blocked.get(key) ?? []).filter((waiting) => waiting.waiting)
    if (entries.length >= options.maxBlockedPerKey) {
      entry.reject(options.tooFast())
      return
    }
    entries.push(entry)
    blocked.set(key, entries)
    entry.waiting = true
    queued++
  }

  /** Drops a waiting job (its client hung up): it frees its place now, and take() skips it. */
  function drop(entry: Entry<Job, Result>) {
    if (!entry.waiting) return
    entry.waiting = false
    queued--
    entry.reject(options.gone())
    if (queued === 0) {
      fresh.length = 0
      blocked.clear()
    }
  }

  function take(): Entry<Job, Result>[] {
    const batch: Entry<Job, Result>[] = []
    const taking = (entry: Entry<Job, Result>) => {
      entry.waiting = false
      batch.push(entry)
    }
    for (const [key, entries] of blocked) {
      if (batch.length >= options.maxBatch) break
      // Dropped entries (clients gone) are skipped; one waiting entry per key at most.
      while (entries[0] && !entries[0].waiting) entries.shift()
      const first = entries.shift()
      if (first) taking(first)
      if (entries.length === 0) blocked.delete(key)
    }
    while (batch.length < options.maxBatch && fresh.length > 0) {
      const entry = fresh.shift()
      if (entry?.waiting) taking(entry)
    }
    queued -= batch.length
    return batch
  }

  async function run(batch: Entry<Job, Result>[]) {
    let outcomes: BatchOutcome<Result>[]
    try {
      outcomes = await runBatch(batch.map((entry) => entry.job))
    } catch (error) {
      if (batch.length === 1) return batch[0]?.reject(error)
      // One bad job must not fail its neighbours: each runs again alone. The log names the count
      // and the error's code only: the error itself holds every job's data.
      log.warn({ jobs: batch.length, code: errorCode(error) }, 'batch failed; its jobs run again one by one')
      for (const entry of batch) await run([entry])
      return
    }
    batch.forEach((entry, index) => {
      const outcome = outcomes[index]
      if (!outcome) entry.reject(new Error('The batch gave no answer for a job.'))
      else if ('result' in outcome) entry.resolve(outcome.result)
      else block(entry, outcome.blockedBy)
    })
  }

  async function drain() {
    running = true
    while (queued > 0) {
      // The embedded database runs on this thread and holds it during a statement: let the
      // requests that arrived meanwhile be read first, so they join this batch.
      await (options.beforeBatch ?? nextTurn)()
      await run(take())
    }
    running = false
  }

  return {
    /** Queues a job; `signal` (the client's connection) drops it while it waits, once aborted. */
    submit(job: Job, signal?: AbortSignal): Promise<Result> {
      if (signal?.aborted) return Promise.reject(options.gone())
      if (queued >= options.maxQueued) return Promise.reject(options.tooBusy())
      return new Promise<Result>((resolve, reject) => {
        const forget = () => signal?.removeEventListener('abort', onAbort)
        const entry: Entry<Job, Result> = {
          job,
          resolve: (result) => {
            forget()
            resolve(result)
          },
          reject: (error) => {
            forget()
            reject(error)
          },
          waiting: true,
          signal,
        }
        const onAbort = () => drop(entry)
        signal?.addEventListener('abort', onAbort)
        fresh.push(entry)
        queued++
        if (!running) void drain()
      })
    },
  }
}
