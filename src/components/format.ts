// How screens write dates: in the reader's own locale, one way everywhere.

/** A moment, e.g. "Nov 24, 2026, 3:25 AM". */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** A chart bucket's label: its hour for a day's chart, its day for longer ones. */
export function formatBucket(iso: string, unit: 'hour' | 'day'): string {
  const date = new Date(iso)
  return unit === 'hour'
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
}
