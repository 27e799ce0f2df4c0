// What PostgreSQL prints for a JSON value stored as jsonb (`value::jsonb::text`), computed without
// a round trip: keys in jsonb's order (shorter first, then bytewise), `, ` and `: ` between items,
// numbers as `numeric` prints them (never an exponent), strings escaped as JSON.stringify does,
// which matches PostgreSQL's escape_json for every string jsonb accepts. Content digests made in
// SQL before (migration 0018) are made from this text, so a value keeps its digest.

/** jsonb's key order: by length in UTF-8 bytes, then bytewise. */
export function byJsonbKey(a: string, b: string): number {
  return Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b))
}

/** A JSON number as `numeric` prints it: JavaScript's shortest digits, written out in full. */
function numericText(value: number): string {
  const text = JSON.stringify(value)
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!exponent) return text
  const [, sign = '', lead = '', fraction = '', power = '0'] = exponent
  const digits = lead + fraction
  const point = 1 + Number(power)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length)
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** `value` (JSON: what JSON.parse gives) as PostgreSQL prints it once stored as jsonb. */
export function jsonbText(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return numericText(value)
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => byJsonbKey(a, b))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${jsonbText(item)}`).join(', ')}}`
  }
  throw new Error(`${typeof value} is not JSON.`)
}
