'use client'

import { useEffect, useRef, useState } from 'react'

/**
 * A destructive button that asks first, and once done offers "Undo" while the server still
 * allows it (`undoMinutes` after `removedAt`).
 */
export function UndoableRemoval({
  subject,
  label,
  question,
  confirmLabel,
  removedAt,
  removedBadge,
  undoMinutes,
  onRemove,
  onUndo,
}: {
  /** What is removed, for screen readers, e.g. "key checkout back end". */
  subject: string
  /** The button, e.g. "Revoke". */
  label: string
  /** What happens, asked before it does, e.g. "Back ends using this key get 401 at once." */
  question: string
  confirmLabel: string
  /** When it was removed; null while it is not. */
  removedAt: string | null
  removedBadge: string
  undoMinutes: number
  onRemove: () => Promise<unknown>
  onUndo: () => Promise<unknown>
}) {
  const [asking, setAsking] = useState(false)
  const undo = useRef<HTMLButtonElement>(null)
  // Confirming removes the focused button: focus goes to Undo, which takes its place.
  const [justRemoved, setJustRemoved] = useState(false)
  useEffect(() => {
    if (justRemoved && removedAt) {
      undo.current?.focus()
      setJustRemoved(false)
    }
  }, [justRemoved, removedAt])
  const undoUntil = removedAt ? new Date(removedAt).getTime() + undoMinutes * 60_000 : 0
  const [now, setNow] = useState(() => Date.now())
  // The Undo button goes when the server would refuse it.
  useEffect(() => {
    if (undoUntil <= now) return
    const timer = setTimeout(() => setNow(Date.now()), undoUntil - now + 100)
    return () => clearTimeout(timer)
  }, [undoUntil, now])

  if (removedAt)
    return (
      <span className="badge-group">
        <span className="badge" role="status">
          {removedBadge}
        </span>
        {undoUntil > now && (
          <button
            ref={undo}
            type="button"
            className="button button-secondary"
            aria-label={`Undo: ${label.toLowerCase()} ${subject}`}
            onClick={() => void onUndo()}
          >
            Undo
          </button>
        )}
      </span>
    )
  if (!asking)
    return (
      <button type="button" className="button button-secondary" onClick={() => setAsking(true)}>
        {label}
      </button>
    )
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question and its two answers, not a form field group
    <span role="group" aria-label={question} className="badge-group">
      <span className="muted">{question}</span>
      <button
        type="button"
        className="button button-danger"
        onClick={async () => {
          setAsking(false)
          await onRemove()
          setNow(Date.now())
          setJustRemoved(true)
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  )
}
