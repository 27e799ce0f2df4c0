'use client'

import { chooseTimeZone, type TimeZoneChoice, useTimeZone } from '../time-zone'
import { SegmentedChoice } from './SegmentedChoice'

const choices: { value: TimeZoneChoice; label: string }[] = [
  { value: 'local', label: 'Local time' },
  { value: 'utc', label: 'UTC' },
]

/** Local time or UTC for every time on the console, kept in this browser. */
export function TimeZoneToggle() {
  const { choice } = useTimeZone()
  return (
    <SegmentedChoice
      legend="Show times in"
      name="time-zone"
      options={choices}
      value={choice}
      onChange={chooseTimeZone}
    />
  )
}
