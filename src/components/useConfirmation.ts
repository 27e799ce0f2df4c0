'use client'

import { type KeyboardEvent, useCallback, useRef, useState } from 'react'

/**
 * A question asked in the page before something that cannot be taken back (a removal, a deletion),
 * kept usable from the keyboard: when it appears, focus goes to the safe choice (`safeChoice`, a
 * ref); Escape (`onKeyDown`, on the question's container) or the safe choice puts it away and
 * focus goes back to the button that asked (`asker`, a ref). `asking` is what the question is
 * about (a row's ID, or `true`), null while nothing is asked.
 */
export function useConfirmation<Subject = true>() {
  const [asking, setAsking] = useState<Subject | null>(null)
  const backToAsker = useRef(false)
  const keep = useCallback(() => {
    backToAsker.current = true
    setAsking(null)
  }, [])
  // Stable refs: React calls them when their button appears, not at every render.
  const safeChoice = useCallback((button: HTMLButtonElement | null) => button?.focus(), [])
  const asker = useCallback((button: HTMLButtonElement | null) => {
    if (!button || !backToAsker.current) return
    backToAsker.current = false
    button.focus()
  }, [])
  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      keep()
    },
    [keep],
  )
  return { asking, ask: setAsking, keep, done: () => setAsking(null), safeChoice, asker, onKeyDown }
}
