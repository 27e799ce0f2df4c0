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
}

interface Entry<Job, Result> {
  job: Job
  resolve(result: Result): void
  reject(error: unknown): void
}

/**
 * Group commit: jobs that arrive while a batch runs form the next batch, so a busy server pays a
 * statement's fixed cost once per batch; an idle one runs each job at once.
 *
 * Fairness: a job blocked by an earlier job of its batch waits in a queue of its own key, and a
 * batch takes at most one job per blocked key before the first-come jobs. A device that sends
 * faster than batches complete is served one request per batch, and everyone else keeps moving.
 */
export function createBatchQueue<Job, Result>(
  runBatch: (jobs: Job[]) => Promise<BatchOutcome<Result>[]>,
  options: BatchQueueOptions,
) {
  const fresh: Entry<Job, Result>[] = []
  const blocked = new Map<string, Entry<Job, Result>[]>()
  let queued = 0
  let running = false

  function block(entry: Entry<Job, Result>, key: string) {
    const entries = blocked.get(key) ?? []
    if (entries.length >= options.maxBlockedPerKey) {
      entry.reject(options.tooFast())
      return
    }
    entries.push(entry)
    blocked.set(key, entries)
    queued++
  }

  function take(): Entry<Job, Result>[] {
    const batch: Entry<Job, Result>[] = []
    for (const [key, entries] of blocked) {
      if (batch.length >= options.maxBatch) break
      const entry = entries.shift()
      if (entry) batch.push(entry)
      if (entries.length === 0) blocked.delete(key)
    }
    batch.push(...fresh.splice(0, options.maxBatch - batch.length))
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
      await new Promise((resolve) => setImmediate(resolve))
      await run(take())
    }
    running = false
  }

  return {
    submit(job: Job): Promise<Result> {
      if (queued >= options.maxQueued) return Promise.reject(options.tooBusy())
      return new Promise((resolve, reject) => {
        fresh.push({ job, resolve, reject })
        queued++
        if (!running) void drain()
      })
    },
  }
}
