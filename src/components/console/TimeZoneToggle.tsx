'use client'

import { chooseTimeZone, type TimeZoneChoice, useTimeZone } from '../time-zone'
import styles from './console.module.css'

const choices: { value: TimeZoneChoice; label: string }[] = [
  { value: 'local', label: 'Local time' },
  { value: 'utc', label: 'UTC' },
]

/** Local time or UTC for every time on the console, kept in this browser. */
export function TimeZoneToggle() {
  const { choice } = useTimeZone()
  return (
    <fieldset className={styles.segmented}>
      <legend className="visually-hidden">Show times in</legend>
      {choices.map(({ value, label }) => (
        <label key={value}>
          <input
            type="radio"
            name="time-zone"
            value={value}
            checked={choice === value}
            onChange={() => chooseTimeZone(value)}
          />
          <span>{label}</span>
        </label>
      ))}
    </fieldset>
  )
}
