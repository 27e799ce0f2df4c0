'use client'

import { useCallback, useEffect, useRef, useState } from 'react'

/** Where a screen's data is: on its way, failed (with a message to show), or here. */
export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; data: T; refreshing: boolean }

/**
 * Runs `load` when the component mounts and again whenever `load` changes (memoise it with
 * useCallback: a new function is a new question, shown as loading). `reload()` asks the same
 * question again in the background: what is shown stays until the new answer arrives (it resolves
 * to whether that answer is the one shown).
 */
export function useLoaded<T>(load: () => Promise<T>) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  // Only the latest asking's answer is shown; a late answer to an earlier one (an earlier question,
  // or the same one asked before a reload) is dropped.
  const current = useRef(load)
  const asked = useRef(0)

  // Whether its answer is the one shown (false when a later asking superseded it).
  const reload = useCallback(async (): Promise<boolean> => {
    const asking = ++asked.current
    const latest = () => current.current === load && asked.current === asking
    setLoaded((previous) => (previous.state === 'ready' ? { ...previous, refreshing: true } : previous))
    try {
      const data = await load()
      if (!latest()) return false
      setLoaded({ state: 'ready', data, refreshing: false })
      return true
    } catch (error) {
      if (!latest()) return false
      setLoaded({ state: 'error', message: messageOf(error) })
      return true
    }
  }, [load])

  useEffect(() => {
    current.current = load
    setLoaded({ state: 'loading' })
    void reload()
  }, [load, reload])

  return { loaded, reload }
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Could not load.'
}
