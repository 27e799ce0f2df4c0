import 'server-only'

/** The autonomous system an address is announced from, and the organisation that runs it. */
export interface AutonomousSystem {
  asn: number
  organization: string
}

/**
 * ip-location-db's `asn-ipv4-num.csv` / `asn-ipv6-num.csv`, searched as it is: one range per line,
 * `start,end,asn,organisation`, bounds as decimal integers, sorted by start, the organisation
 * quoted when it holds a comma or a quote. Kept as one latin1 string (a byte per character) and
 * searched by binary search over line offsets, so loading costs a file read, not a parse of half a
 * million lines in every process that starts.
 */
export interface AsnTable {
  text: string
  source: string
}

/** Lines checked at load, spread over the file: a truncated, foreign or unsorted file fails here. */
const CHECKED_LINES = 2000
const LINE = /^(\d{1,39}),(\d{1,39}),(\d{1,10}),(.*)$/

export function loadAsnTable(bytes: Buffer, source: string): AsnTable {
  const text = bytes.toString('latin1')
  const table = { text, source }
  if (text.trim() === '') throw new Error(`${source}: the file is empty`)
  let previous = -1n
  for (let index = 0; index <= CHECKED_LINES; index++) {
    const offset = lineStart(text, Math.floor((text.length - 1) * (index / CHECKED_LINES)))
    const line = rangeAt(table, offset)
    if (!line) throw new Error(`${source}: the line at byte ${offset} is not start,end,asn,organisation`)
    if (line.start < previous) throw new Error(`${source}: the ranges are not sorted (byte ${offset})`)
    previous = line.start
  }
  return table
}

/** The offset of the line holding `offset`. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1
}

function rangeAt(table: AsnTable, offset: number) {
  const end = table.text.indexOf('\n', offset)
  const match = LINE.exec(table.text.slice(offset, end < 0 ? undefined : end).trimEnd())
  if (!match) return null
  const [, start = '', last = '', asn = '', organization = ''] = match
  return { start: BigInt(start), end: BigInt(last), asn: Number(asn), organization }
}

/** Whether the line at `offset` starts at or before the address (the search's only read); false for a line that is not a range. */
function startsAtOrBefore(text: string, offset: number, address: bigint, small: number | null): boolean {
  const comma = text.indexOf(',', offset)
  if (comma <= offset || comma - offset > 39) return false
  const digits = text.slice(offset, comma)
  if (digits.length <= 15) {
    const start = Number(digits)
    if (!Number.isInteger(start)) return false
    return small === null || start <= small
  }
  if (small !== null) return false
  try {
    return BigInt(digits) <= address
  } catch {
    return false
  }
}

/** Ranges overlap now and then: a range this many lines back may still hold the address. */
const OVERLAP_LINES = 2

/** The range holding `address` (an integer: 32 bits for IPv4, 128 for IPv6). */
export function findAutonomousSystem(table: AsnTable, address: bigint): AutonomousSystem | null {
  const { text } = table
  // The last line starting at or before the address, by bisecting byte offsets.
  let low = 0
  let high = text.length
  let found = -1
  // IPv4 bounds fit in a double: compared as numbers, several times faster than as BigInt.
  const small = address <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(address) : null
  while (low < high) {
    const offset = lineStart(text, Math.floor((low + high) / 2))
    if (startsAtOrBefore(text, offset, address, small)) {
      found = offset
      const next = text.indexOf('\n', offset)
      low = next < 0 ? text.length : next + 1
    } else high = offset
  }
  for (let offset = found, step = 0; offset >= 0 && step <= OVERLAP_LINES; step++) {
    const range = rangeAt(table, offset)
    if (range && range.start <= address && range.end >= address)
      return { asn: range.asn, organization: organizationName(range.organization) }
    offset = offset === 0 ? -1 : lineStart(text, offset - 1)
  }
  return null
}

/** The CSV field as text: unquoted, quotes undoubled, its UTF-8 bytes read back from latin1. */
function organizationName(field: string): string {
  const unquoted =
    field.startsWith('"') && field.endsWith('"') && field.length >= 2
      ? field.slice(1, -1).replaceAll('""', '"')
      : field
  return Buffer.from(unquoted, 'latin1').toString('utf8')
}
