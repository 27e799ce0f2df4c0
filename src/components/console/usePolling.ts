'use client'

import { useCallback, useEffect } from 'react'
import { useLoaded } from '../useLoaded'
import { callConsole } from './api'

/** Loads a console endpoint and refreshes it in the background, without a page reload. */
export function usePolling<T>(path: string, intervalMs = 10_000) {
  const load = useCallback(() => callConsole<T>(path), [path])
  const { loaded, reload } = useLoaded(load)

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload()
    }, intervalMs)
    return () => clearInterval(timer)
  }, [reload, intervalMs])

  return { loaded, reload }
}
