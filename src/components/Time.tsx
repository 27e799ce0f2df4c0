'use client'

import { formatTime } from './format'
import { useTimeZone } from './time-zone'

/** A moment, in the reader's chosen clock, with its zone; the other clock on hover. */
export function Time({ iso }: { iso: string }) {
  const { choice, timeZone } = useTimeZone()
  return (
    <time dateTime={iso} title={formatTime(iso, { timeZone: choice === 'utc' ? undefined : 'UTC' })}>
      {formatTime(iso, { timeZone })}
    </time>
  )
}
