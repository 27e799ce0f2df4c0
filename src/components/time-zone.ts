'use client'

import { useSyncExternalStore } from 'react'

/** Which clock the screens show times in: the reader's own, or UTC (what logs and the API use). */
export type TimeZoneChoice = 'local' | 'utc'

const STORAGE_KEY = 'tessera.timeZone'
const listeners = new Set<() => void>()
/** The choice where storage is refused: it lasts for the page. */
let fallback: TimeZoneChoice | undefined

function read(): TimeZoneChoice {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'utc' ? 'utc' : 'local'
  } catch {
    return 'local'
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  // Another tab's choice applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

/** Keeps the choice in this browser (storage may be refused: then it lasts for the page). */
export function chooseTimeZone(choice: TimeZoneChoice) {
  try {
    localStorage.setItem(STORAGE_KEY, choice)
  } catch {
    fallback = choice
  }
  for (const listener of listeners) listener()
}

/** The reader's choice; `timeZone` is what format.ts takes (undefined: the reader's own zone). */
export function useTimeZone(): { choice: TimeZoneChoice; timeZone: string | undefined } {
  const choice = useSyncExternalStore(
    subscribe,
    () => fallback ?? read(),
    () => 'local' as const,
  )
  return { choice, timeZone: choice === 'utc' ? 'UTC' : undefined }
}
