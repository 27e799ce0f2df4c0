import { describe, expect, it } from 'vitest'
import { type BatchOutcome, createBatchQueue } from './batch-queue'

// The queue alone, with a batch function that claims keys the way identification claims visitors:
// the first job of a key in a batch is done, later ones are blocked by it.
function claimingQueue(options: { maxQueued?: number; maxBlockedPerKey?: number; failOn?: string } = {}) {
  const batches: string[][] = []
  const queue = createBatchQueue<string, string>(
    async (jobs) => {
      batches.push(jobs)
      if (options.failOn && jobs.includes(options.failOn)) throw new Error(`cannot store ${options.failOn}`)
      const claimed = new Set<string>()
      return jobs.map((job): BatchOutcome<string> => {
        if (claimed.has(job)) return { blockedBy: job }
        claimed.add(job)
        return { result: `stored ${job}` }
      })
    },
    {
      maxBatch: 8,
      maxQueued: options.maxQueued ?? 1000,
      maxBlockedPerKey: options.maxBlockedPerKey ?? 1000,
      tooBusy: () => new Error('too busy'),
      tooFast: () => new Error('too fast'),
      gone: () => new Error('gone'),
    },
  )
  return { queue, batches }
}

describe('createBatchQueue', () => {
  it('runs a lone job at once, and jobs that arrive together in shared batches', async () => {
    const { queue, batches } = claimingQueue()
    expect(await queue.submit('a')).toBe('stored a')
    await Promise.all(['b', 'c', 'd'].map((job) => queue.submit(job)))
    expect(batches).toEqual([['a'], ['b', 'c', 'd']])
  })

  it('runs a blocked job again after the one that blocked it', async () => {
    const { queue, batches } = claimingQueue()
    expect(await Promise.all([queue.submit('a'), queue.submit('a'), queue.submit('b')])).toEqual([
      'stored a',
      'stored a',
      'stored b',
    ])
    expect(batches).toEqual([['a', 'a', 'b'], ['a']])
  })

  it('fails only the job that breaks its batch', async () => {
    const { queue } = claimingQueue({ failOn: 'bad' })
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((job) => queue.submit(job)))
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })

  it('refuses new jobs when too many wait, and a key that floods its own queue', async () => {
    const busy = claimingQueue({ maxQueued: 3 })
    const crowded = await Promise.allSettled(['a', 'b', 'c', 'd'].map((job) => busy.queue.submit(job)))
    expect(crowded.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
      'Error: too busy',
    ])

    const flooded = claimingQueue({ maxBlockedPerKey: 2 })
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => flooded.queue.submit('hot')))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3)
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(3)
  })

  it('drops a waiting job whose client hung up: never run, its place freed at once', async () => {
    const { queue, batches } = claimingQueue({ maxQueued: 2 })
    const hungUp = new AbortController()
    const running = queue.submit('a')
    // 'b' waits while 'a' runs; its client hangs up before 'a' is done.
    const dropped = queue.submit('b', hungUp.signal)
    hungUp.abort()
    await expect(dropped).rejects.toThrow('gone')
    // Its place is free again at once (maxQueued 2: 'a' and one more).
    const next = queue.submit('c')
    expect(await Promise.all([running, next])).toEqual(['stored a', 'stored c'])
    expect(batches.flat()).not.toContain('b')
    // A client that is already gone is not queued at all.
    await expect(queue.submit('d', AbortSignal.abort())).rejects.toThrow('gone')
    expect(batches.flat()).not.toContain('d')
  })

  it('drops a blocked job whose client hung up, and runs a job taken into a batch to the end', async () => {
    const { queue, batches } = claimingQueue()
    const hungUp = new AbortController()
    const first = queue.submit('a')
    const second = queue.submit('a', hungUp.signal)
    const taken = new AbortController()
    const third = queue.submit('t', taken.signal)
    // The batch ['a', 'a', 't'] is running: 't' is taken and stored; the second 'a' is blocked,
    // and its client hangs up while it waits for the first.
    await new Promise((resolve) => setImmediate(resolve))
    taken.abort()
    hungUp.abort()
    expect(await first).toBe('stored a')
    expect(await third).toBe('stored t')
    await expect(second).rejects.toThrow('gone')
    expect(batches).toEqual([['a', 'a', 't']])
  })
})
