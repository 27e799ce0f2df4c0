'use client'

import { useState } from 'react'
import type { Label, SubjectLabel } from '@/contracts/console'
import { ErrorNote } from '../Notes'
import { Time } from '../Time'
import { callConsole } from './api'
import styles from './console.module.css'

const OPTIONS = [
  { value: 'none', label: 'No label' },
  { value: 'fraud', label: 'Fraud' },
  { value: 'good', label: 'Good' },
] as const

/**
 * An analyst's label of a visitor or an account: fraud, good or none, saved when a button is
 * pressed (one at a time), with who set it and when.
 */
export function LabelChoice({
  subject,
  id,
  name,
  label,
}: {
  subject: 'visitor' | 'account'
  id: string
  /** What is labelled, for screen readers ("visitor x1y2", "account ann@example.com"). */
  name: string
  label: SubjectLabel | null
}) {
  const [current, setCurrent] = useState<SubjectLabel | null>(label)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function choose(value: Label | 'none') {
    const before = current
    setError(null)
    setSaving(true)
    setCurrent(
      value === 'none' ? null : { label: value, operator: 'you', labelledAt: new Date().toISOString() },
    )
    try {
      if (subject === 'visitor') {
        const params = { visitorId: id }
        if (value === 'none') await callConsole('DELETE /api/console/visitors/:visitorId/label', { params })
        else
          await callConsole('PUT /api/console/visitors/:visitorId/label', { params, body: { label: value } })
      } else {
        const params = { accountId: id }
        if (value === 'none') await callConsole('DELETE /api/console/accounts/:accountId/label', { params })
        else
          await callConsole('PUT /api/console/accounts/:accountId/label', { params, body: { label: value } })
      }
    } catch (failure) {
      setCurrent(before)
      setError(failure instanceof Error ? failure.message : 'The label was not saved.')
    } finally {
      setSaving(false)
    }
  }

  const chosen = current?.label ?? 'none'
  return (
    <div className={styles.labelChoice}>
      {/* Buttons, not radios: arrow keys over radios would save every label passed on the way. */}
      <fieldset className={styles.segmented}>
        <legend className="visually-hidden">Label of {name}</legend>
        {OPTIONS.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={chosen === option.value}
            disabled={saving}
            onClick={() => {
              if (chosen !== option.value) void choose(option.value)
            }}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
      <span className="muted" aria-live="polite">
        {saving ? (
          'Saving…'
        ) : current ? (
          <>
            by {current.operator}, <Time iso={current.labelledAt} />
          </>
        ) : null}
      </span>
      {error && <ErrorNote>{error}</ErrorNote>}
    </div>
  )
}
