// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useAddressParams } from './useAddressParams'

/** A router whose navigations show their address only when `show` is called, as a slow one does. */
function slowRouter(initial: string) {
  const asked: { search: string; how: string }[] = []
  const hook = renderHook(
    ({ shown }) => useAddressParams(shown, (search, how) => asked.push({ search, how })),
    { initialProps: { shown: initial } },
  )
  const show = (search = asked.at(-1)?.search ?? initial) => hook.rerender({ shown: search })
  const last = () => asked.at(-1)?.search
  return { asked, show, last, change: () => hook.result.current }
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
    expect(router.last()).toBe('')
    router.show()
    act(() => router.change()((params) => params.set('lookup', 'v1')))
    expect(router.last()).toBe('lookup=v1')
  })

  it('follows an address shown by another way (a link) once what it asked for is shown', () => {
    const router = slowRouter('a=1')
    act(() => router.change()((params) => params.set('b', '2')))
    router.show()
    // A link, not this hook, shows another address: the next change builds on it.
    router.show('a=1&b=2&c=3')
    act(() => router.change()((params) => params.set('d', '4')))
    expect(router.last()).toBe('a=1&b=2&c=3&d=4')
  })

  it('forgets an address asked for when another way shows a different one before it', () => {
    const router = slowRouter('a=1')
    act(() => router.change()((params) => params.set('b', '2')))
    // A redirect or a link wins over the change still on its way.
    router.show('x=9')
    act(() => router.change()((params) => params.set('y', '8')))
    expect(router.last()).toBe('x=9&y=8')
  })

  it('asks for nothing when a change changes nothing, and still follows the address shown', () => {
    const router = slowRouter('a=1&c=3')
    act(() => router.change()((params) => params.set('a', '1')))
    expect(router.asked).toEqual([])
    router.show('a=1&b=2&c=3')
    act(() => router.change()((params) => params.set('d', '4')))
    expect(router.last()).toBe('a=1&b=2&c=3&d=4')
  })

  it('follows the address shown once Back or Forward changed it', () => {
    const router = slowRouter('signal=bot')
    act(() => router.change()((params) => params.set('lookup', 'v1')))
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate'))
    })
    act(() => router.change()((params) => params.set('site', 's1')))
    expect(router.last()).toBe('signal=bot&site=s1')
  })

  it('passes on whether the change is a new step of the history', () => {
    const router = slowRouter('')
    act(() => router.change()((params) => params.set('event', 'e1'), 'push'))
    expect(router.asked).toEqual([{ search: 'event=e1', how: 'push' }])
  })
})
