'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import { callConsole } from './api'

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; data: T; refreshing: boolean }

/** Loads a console endpoint and refreshes it in the background, without a page reload. */
export function usePolling<T>(path: string, intervalMs = 10_000) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  const current = useRef(path)
  current.current = path

  const load = useCallback(async () => {
    setLoaded((previous) => (previous.state === 'ready' ? { ...previous, refreshing: true } : previous))
    try {
      const data = await callConsole<T>(path)
      if (current.current === path) setLoaded({ state: 'ready', data, refreshing: false })
    } catch (error) {
      if (current.current === path) {
        setLoaded({ state: 'error', message: error instanceof Error ? error.message : 'Could not load.' })
      }
    }
  }, [path])

  useEffect(() => {
    setLoaded({ state: 'loading' })
    void load()
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load()
    }, intervalMs)
    return () => clearInterval(timer)
  }, [load, intervalMs])

  return { loaded, reload: load }
}
