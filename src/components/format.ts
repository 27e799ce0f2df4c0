// How screens write dates and numbers: in the reader's own locale, one way everywhere. The
// locale (and time zone) can be fixed, for tests that need exact output; screens leave it out.

export type FormatOptions = {
  /** A BCP 47 tag such as `en-US`; the reader's own locale when left out. */
  locale?: string
  /** An IANA zone such as `UTC`; the reader's own zone when left out. */
  timeZone?: string
}

/** A moment with its time zone, e.g. "Nov 24, 2026, 3:25 AM UTC": a time read without its zone is a guess. */
export function formatTime(iso: string, { locale, timeZone }: FormatOptions = {}): string {
  return new Date(iso).toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  })
}

/** A chart bucket's label: its hour for a day's chart, its day for longer ones. */
export function formatBucket(iso: string, unit: 'hour' | 'day', { locale, timeZone }: FormatOptions = {}) {
  const date = new Date(iso)
  return unit === 'hour'
    ? date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', timeZone })
    : date.toLocaleDateString(locale, { month: 'short', day: 'numeric', timeZone })
}

/** A share from 0 to 1 as a whole percentage, e.g. 0.874 → "87%". */
export function formatPercent(share: number, { locale }: FormatOptions = {}): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(share)
}

/** A count with the locale's digit grouping, e.g. 12345 → "12,345". */
export function formatCount(count: number, { locale }: FormatOptions = {}): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(count)
}

/**
 * Information in bits, to one decimal, e.g. "3.2 bits". `signed` marks evidence for (+) or
 * against (−) a match; a value that rounds to zero carries no sign.
 */
export function formatBits(
  bits: number,
  { signed = false, locale }: FormatOptions & { signed?: boolean } = {},
) {
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(bits)
  return `${number} bits`
}

/**
 * How rare a value is: "1 in N" visitors, where `sharedBy` of `total` share it (N is at least 1,
 * so a value everyone shares reads "1 in 1").
 */
export function formatOneIn(sharedBy: number, total: number, options: FormatOptions = {}): string {
  const oneIn = Math.max(1, Math.round(total / Math.max(1, sharedBy)))
  return `1 in ${formatCount(oneIn, options)}`
}

/** A duration in whole milliseconds, e.g. 1234.4 → "1,234 ms". */
export function formatDuration(milliseconds: number, { locale }: FormatOptions = {}): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'millisecond',
    unitDisplay: 'short',
    maximumFractionDigits: 0,
  }).format(milliseconds)
}

/**
 * Where an address is and whose network it is, from an event's `ipInfo` signal, e.g.
 * "Nuremberg, Germany · Hetzner Online GmbH (AS24940)"; null when the signal says nothing (an event
 * stored before network signals, or an address in no database).
 */
export function formatNetwork(ipInfo: { result: unknown } | undefined): string | null {
  const info = ipInfo?.result
  if (typeof info !== 'object' || info === null) return null
  const field = (name: string) => {
    const value = (info as Record<string, unknown>)[name]
    return typeof value === 'string' || typeof value === 'number' ? String(value) : null
  }
  const place = [field('city'), field('countryName') ?? field('countryCode')].filter(Boolean).join(', ')
  const asn = field('asn')
  const network = field('asnOrganization') ? `${field('asnOrganization')}${asn ? ` (AS${asn})` : ''}` : null
  const parts = [place, network].filter(Boolean)
  return parts.length > 0 ? parts.join(' · ') : null
}
