'use client'

import { type ReactNode, useId } from 'react'
import styles from './FormField.module.css'

/** What a field hands its control: the label's target, what describes it, and whether it is invalid. */
export type ControlProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }

/**
 * One form field: its label, its control, a hint, and its own error message, wired together
 * (label → id, hint and error → aria-describedby, error → aria-invalid). The control is the
 * caller's own (`input`, `select`, `textarea`, or a row around one), given `ControlProps`.
 */
export function FormField({
  label,
  hint,
  error,
  describedBy,
  invalid = false,
  layout = 'stack',
  hideLabel = false,
  className,
  children,
}: {
  label: ReactNode
  hint?: ReactNode
  /** This field's own message: shown under the control, which it describes and marks invalid. */
  error?: string
  /** Ids of other text that describes the control, e.g. a message for the whole form. */
  describedBy?: string
  /** Invalid for a reason told elsewhere (named in `describedBy`). */
  invalid?: boolean
  /** `stack`: label above; `inline`: the same, as wide as its control; `check`: a checkbox before its label. */
  layout?: 'stack' | 'inline' | 'check'
  hideLabel?: boolean
  className?: string
  children: (control: ControlProps) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const control = children({
    id,
    'aria-describedby':
      [error ? errorId : undefined, hint ? hintId : undefined, describedBy].filter(Boolean).join(' ') ||
      undefined,
    'aria-invalid': error || invalid ? true : undefined,
  })
  const labelElement = (
    <label htmlFor={id} className={hideLabel ? 'visually-hidden' : styles.label}>
      {label}
    </label>
  )
  return (
    <div className={[styles.field, styles[layout], className].filter(Boolean).join(' ')}>
      {layout === 'check' ? (
        <div className={styles.checkRow}>
          {control}
          {labelElement}
        </div>
      ) : (
        <>
          {labelElement}
          {control}
        </>
      )}
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  )
}
