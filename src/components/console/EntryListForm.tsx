'use client'

import { useState } from 'react'
import { FormField } from '../FormField'
import { ErrorNote, SuccessNote } from '../Notes'
import styles from './console.module.css'
import { splitEntries } from './split-entries'
import { useFormAction } from './useFormAction'

/** A list edited one entry per line (origins), saved as a whole. */
export function EntryListForm({
  name,
  label,
  hint,
  entries,
  minRows,
  placeholder,
  saveLabel,
  notSaved,
  save,
}: {
  /** The field's name, as the endpoint's errors name it. */
  name: string
  label: string
  hint: string
  entries: readonly string[]
  minRows: number
  placeholder: string
  saveLabel: string
  /** What the form says when saving fails without a message of the server's. */
  notSaved: string
  save(entries: string[]): Promise<void>
}) {
  const { errors, submit } = useFormAction([name], notSaved)
  const [saved, setSaved] = useState(false)

  return (
    <form
      className={styles.stack}
      noValidate
      onSubmit={async (event) => {
        setSaved(false)
        setSaved(await submit(event, (data) => save(splitEntries(String(data.get(name) ?? '')))))
      }}
    >
      <FormField label={label} hint={hint} error={errors.fields[name]}>
        {(control) => (
          <textarea
            {...control}
            name={name}
            rows={Math.min(Math.max(entries.length + 1, minRows), 10)}
            defaultValue={entries.join('\n')}
            placeholder={placeholder}
          />
        )}
      </FormField>
      {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      <div className={styles.row}>
        <button type="submit" className="button button-secondary">
          {saveLabel}
        </button>
        {saved && <SuccessNote>Saved.</SuccessNote>}
      </div>
    </form>
  )
}
