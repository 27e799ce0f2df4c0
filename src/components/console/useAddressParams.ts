'use client'

import { useCallback, useEffect, useRef } from 'react'

/**
 * The console's address parameters as last asked for. A navigation shows its address only once it
 * is done, so two changes in quick succession (clearing one panel's filters, then another's) must
 * build on each other, not each on the address still shown: the second would undo the first.
 * `shown` is the query string the page shows; `navigate` asks for another, in place of the current
 * entry of the browser's history or as a new one.
 */
export function useAddressParams(shown: string, navigate: (search: string, how: 'replace' | 'push') => void) {
  const asked = useRef<string | null>(null)
  useEffect(() => {
    if (asked.current === shown) asked.current = null
  }, [shown])
  useEffect(() => {
    // Back and Forward show another address than the one asked for.
    const forget = () => {
      asked.current = null
    }
    window.addEventListener('popstate', forget)
    return () => window.removeEventListener('popstate', forget)
  }, [])
  return useCallback(
    (change: (params: URLSearchParams) => void, how: 'replace' | 'push' = 'replace') => {
      const next = new URLSearchParams(asked.current ?? shown)
      change(next)
      asked.current = next.toString()
      navigate(asked.current, how)
    },
    [shown, navigate],
  )
}
