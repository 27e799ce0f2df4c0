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
})
