import { describe, expect, it } from 'vitest'
import type { IdentifyResult } from '../../agent'
import { createVisitorDataCache } from './visitor-data-cache'

const data = { requestId: 'req-1', visitorId: 'visitor-1' } as IdentifyResult

describe('createVisitorDataCache', () => {
  it('serves an answer until it is older than its max age', () => {
    let now = 0
    const cache = createVisitorDataCache({ location: 'memory', maxAgeSeconds: 60 }, () => now)
    cache.write('k', data)
    now = 59_999
    expect(cache.read('k')).toBe(data)
    now = 60_000
    expect(cache.read('k')).toBeUndefined()
  })

  it('never keeps an answer longer than 24 hours', () => {
    let now = 0
    const cache = createVisitorDataCache({ location: 'memory', maxAgeSeconds: 7 * 86_400 }, () => now)
    cache.write('k', data)
    now = 86_400_000 - 1
    expect(cache.read('k')).toBe(data)
    now = 86_400_000
    expect(cache.read('k')).toBeUndefined()
  })

  it('keeps nothing with "none", and treats missing sessionStorage as a miss', () => {
    const none = createVisitorDataCache('none')
    none.write('k', data)
    expect(none.read('k')).toBeUndefined()
    // This file runs in Node: no window at all.
    const session = createVisitorDataCache('sessionStorage')
    session.write('k', data)
    expect(session.read('k')).toBeUndefined()
  })
})
