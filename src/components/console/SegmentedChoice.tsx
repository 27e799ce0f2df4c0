'use client'

import styles from './console.module.css'

/** One choice among a few, as a row of segments (radio buttons underneath: arrows move, Tab leaves). */
export function SegmentedChoice<Value extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  /** What is chosen, for screen readers. */
  legend: string
  name: string
  options: readonly { value: Value; label: string }[]
  value: Value
  onChange: (value: Value) => void
}) {
  return (
    <fieldset className={styles.segmented}>
      <legend className="visually-hidden">{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  )
}
