import { describe, expect, it } from 'vitest'
import { withMockedGlobals } from '../../tests/support/browser-globals'
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

describe('collectWhenIdle', () => {
  it('collects once the page is idle, and the first get() takes that collection', async () => {
    const page = idlePage()
    await withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, async () => {
      const headStart = collectWhenIdle()
      // Asked with a deadline, so a page that is never idle still gets its collection.
      expect(page.timeouts).toEqual([1000])
      page.idle()
      const taken = headStart.take()
      expect(taken).toBeInstanceOf(Promise)
      const collection = await taken
      expect(Object.keys(collection?.components ?? {}).length).toBeGreaterThan(40)
      // Once only: a later get() collects afresh.
      expect(headStart.take()).toBeUndefined()
    })
  })

  it('leaves a get() that comes first to collect for itself, and then collects nothing', () => {
    const page = idlePage()
    withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, () => {
      const headStart = collectWhenIdle()
      expect(headStart.take()).toBeUndefined()
      page.idle()
      expect(headStart.take()).toBeUndefined()
    })
  })

  it('does not hand over a collection older than half a minute', async () => {
    const page = idlePage()
    let clock = 0
    await withMockedGlobals({ requestIdleCallback: page.requestIdleCallback }, async () => {
      const headStart = collectWhenIdle(() => clock)
      page.idle()
      clock = 30_001
      expect(headStart.take()).toBeUndefined()
    })
  })
})
