// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useAddressParams } from './useAddressParams'

/** A router whose navigations show their address only when `finish` is called, as a slow one does. */
function slowRouter(initial: string) {
  const asked: string[] = []
  const hook = renderHook(({ shown }) => useAddressParams(shown, (search) => asked.push(search)), {
    initialProps: { shown: initial },
  })
  const finish = () => hook.rerender({ shown: asked.at(-1) ?? initial })
  return { asked, finish, change: () => hook.result.current }
}

describe('useAddressParams', () => {
  it('builds a second change on the first while the first is not shown yet', () => {
    const router = slowRouter('minScore=1&ip=10.0.0&outcome=allow&email=a%40example.com')
    act(() => {
      router.change()((params) => {
        params.delete('minScore')
        params.delete('ip')
      })
      router.change()((params) => {
        params.delete('outcome')
        params.delete('email')
      })
    })
    expect(router.asked.at(-1)).toBe('')
    router.finish()
    act(() => router.change()((params) => params.set('lookup', 'v1')))
    expect(router.asked.at(-1)).toBe('lookup=v1')
  })

  it('follows the address shown once Back or Forward changed it', () => {
    const router = slowRouter('signal=bot')
    act(() => router.change()((params) => params.set('lookup', 'v1')))
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    act(() => router.change()((params) => params.set('site', 's1')))
    expect(router.asked.at(-1)).toBe('signal=bot&site=s1')
  })
})
