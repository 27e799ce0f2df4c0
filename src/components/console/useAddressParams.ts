'use client'

import { useEffect, useRef } from 'react'

/**
 * The console's address parameters as last asked for. A navigation shows its address only once it
 * is done, so two changes in quick succession (clearing one panel's filters, then another's) must
 * build on each other, not each on the address still shown: the second would undo the first.
 * `shown` is the query string the page shows; `navigate` asks for another, in place of the current
 * entry of the browser's history or as a new one.
 */
export function useAddressParams(shown: string, navigate: (search: string, how: 'replace' | 'push') => void) {
  // The addresses asked for and not shown yet, oldest first.
  const pending = useRef<string[]>([])
  useEffect(() => {
    // Shown: it and those before it are done. Another address (a link, Back, Forward): none is pending.
    const at = pending.current.indexOf(shown)
    pending.current = at === -1 ? [] : pending.current.slice(at + 1)
  }, [shown])
  useEffect(() => {
    const forget = () => {
      pending.current = []
    }
    window.addEventListener('popstate', forget)
    return () => window.removeEventListener('popstate', forget)
  }, [])
  return (change: (params: URLSearchParams) => void, how: 'replace' | 'push' = 'replace') => {
    const base = pending.current.at(-1) ?? shown
    const next = new URLSearchParams(base)
    change(next)
    const search = next.toString()
    if (search === base) return
    pending.current.push(search)
    navigate(search, how)
  }
}
