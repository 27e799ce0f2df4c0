import { afterEach, describe, expect, it, vi } from 'vitest'
import { pace } from './pace'

describe('pace', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('pauses after each chunk so the work takes its share of the time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] })
    const paused = pace(0.25)
    const settled = vi.fn()
    // A chunk of 20 ms: a pause of three times that follows.
    vi.advanceTimersByTime(20)
    const first = paused().then(settled)
    await vi.advanceTimersByTimeAsync(59)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await first
    expect(settled).toHaveBeenCalledTimes(1)
    // The next chunk is measured from the pause's end, not from the first chunk's start.
    vi.advanceTimersByTime(4)
    const second = paused().then(settled)
    await vi.advanceTimersByTimeAsync(11)
    expect(settled).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    await second
    expect(settled).toHaveBeenCalledTimes(2)
  })
})
