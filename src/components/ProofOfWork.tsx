'use client'

import { useEffect, useRef, useState } from 'react'

/**
 * The ALTCHA proof-of-work widget. The browser solves a small puzzle (a few seconds at most) and
 * hands back a payload the server verifies; nothing to click, no data sent anywhere else.
 * Used by the sign-up form and by the console sign-in after a few wrong passwords.
 */
export function ProofOfWork({
  onSolved,
  solvedText = 'Puzzle solved. Creating your account…',
  challengeUrl = '/api/registration/challenge',
}: {
  onSolved: (payload: string) => void
  /** What the status line says once the puzzle is solved. */
  solvedText?: string
  /** Where the puzzle comes from: its size depends on what it is for. */
  challengeUrl?: string
}) {
  const holder = useRef<HTMLDivElement>(null)
  const [state, setState] = useState('verifying')

  useEffect(() => {
    let widget: HTMLElement | undefined
    let cancelled = false
    void import('altcha').then(() => {
      if (cancelled || !holder.current) return
      widget = document.createElement('altcha-widget')
      widget.setAttribute('challenge', challengeUrl)
      widget.setAttribute('auto', 'onload')
      widget.setAttribute('name', 'altcha')
      widget.addEventListener('statechange', (event) => {
        const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail
        setState(detail.state)
        if (detail.state === 'verified' && detail.payload) onSolved(detail.payload)
      })
      holder.current.appendChild(widget)
    })
    return () => {
      cancelled = true
      widget?.remove()
    }
  }, [onSolved, challengeUrl])

  return (
    <div>
      <div ref={holder} />
      <p role="status" aria-live="polite" className="muted">
        {state === 'verified'
          ? solvedText
          : state === 'error' || state === 'expired'
            ? 'The puzzle could not be solved. Reload the page to try again.'
            : 'Your browser is solving a short puzzle to confirm you are human. This takes a few seconds…'}
      </p>
    </div>
  )
}
