import { describe, expect, it } from 'vitest'
import { withMockedGlobals } from '../../tests/support/browser-globals'
import type { CollectResult } from './collect'
import { collectWhenIdle } from './head-start'

/** requestIdleCallback that runs only when the test says the page is idle. */
function idlePage() {
  const waiting: (() => void)[] = []
  const timeouts: number[] = []
  return {
    requestIdleCallback: (callback: () => void, options: { timeout: number }) => {
      waiting.push(callback)
      timeouts.push(options.timeout)
      return waiting.length
    },
    idle: () => {
      for (const callback of waiting.splice(0)) callback()
    },
    timeouts,
  }
}

/** A stand-in for collect() that counts its runs. */
function counted() {
  const collection = { components: {}, duration: 1, mainThread: { total: 1, longest: 1 } } as CollectResult
  const calls = { count: 0 }
  const run = () => {
    calls.count++
    return Promise.resolve(collection)
  }
  return { calls, run, collection }
}

describe('collectWhenIdle', () => {
  it('collects once the page is idle, and the first get() takes that collection, once', async () => {
    const page = idlePage()
    const { calls, run, collection } = counted()
    await withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, async () => {
      const headStart = collectWhenIdle({ run })
      // Asked with a deadline, so a page that is never idle still gets its collection.
      expect(page.timeouts).toEqual([1000])
      expect(calls.count).toBe(0)
      page.idle()
      expect(calls.count).toBe(1)
      expect(await headStart.take()).toBe(collection)
      // Once only: a later get() collects afresh.
      expect(headStart.take()).toBeUndefined()
    })
  })

  it('leaves a get() that comes first to collect for itself, and then collects nothing', () => {
    const page = idlePage()
    const { calls, run } = counted()
    withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, () => {
      const headStart = collectWhenIdle({ run })
      expect(headStart.take()).toBeUndefined()
      page.idle()
      expect(calls.count).toBe(0)
    })
  })

  it('collects nothing once cancelled (a frame taken away)', () => {
    const page = idlePage()
    const { calls, run } = counted()
    withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, () => {
      collectWhenIdle({ run }).cancel()
      page.idle()
      expect(calls.count).toBe(0)
    })
  })

  it('waits for the document to be parsed: fonts are measured in its body', () => {
    const page = idlePage()
    const { calls, run } = counted()
    const listeners: (() => void)[] = []
    const document = {
      readyState: 'loading',
      addEventListener: (type: string, listener: () => void) => {
        if (type === 'DOMContentLoaded') listeners.push(listener)
      },
    }
    withMockedGlobals({ requestIdleCallback: page.requestIdleCallback, document }, () => {
      collectWhenIdle({ run })
      page.idle()
      expect(calls.count).toBe(0)
      for (const listener of listeners) listener()
      page.idle()
      expect(calls.count).toBe(1)
    })
  })

  it('does not hand over a collection older than half a minute', () => {
    const page = idlePage()
    const { run } = counted()
    let clock = 0
    withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, () => {
      const headStart = collectWhenIdle({ now: () => clock, run })
      page.idle()
      clock = 30_001
      expect(headStart.take()).toBeUndefined()
    })
  })
})
