// Durations as events store them (migration 0039): each in tenths of a millisecond (what the agent
// measures), as a base-128 varint of tenths + 1, 0 for none. The SQL twins tessera_pack_durations and
// tessera_unpack_durations write and read the same bytes (migration 0039 packed the stored ones with them).

/** Largest duration kept, in milliseconds (about five days; the code then fits in 32 bits). */
const LONGEST = 429_496_729.4

/** Appends `code` (a non-negative safe integer) as a base-128 varint, low bits first. */
export function pushVarint(bytes: number[], code: number) {
  let rest = code
  while (rest >= 128) {
    bytes.push((rest % 128) | 128)
    rest = Math.floor(rest / 128)
  }
  bytes.push(rest)
}

export function packDurations(durations: readonly (number | null | undefined)[]): Buffer {
  const bytes: number[] = []
  for (const duration of durations) {
    // The SQL twin rounds the tenths as `numeric`, from a double's 15 significant digits.
    const code =
      typeof duration === 'number'
        ? Math.round(Number((Math.min(Math.max(duration, 0), LONGEST) * 10).toPrecision(15))) + 1
        : 0
    pushVarint(bytes, code)
  }
  return Buffer.from(bytes)
}

export function unpackDurations(packed: Uint8Array): (number | null)[] {
  const durations: (number | null)[] = []
  let code = 0
  let scale = 1
  for (const byte of packed) {
    code += (byte & 127) * scale
    if (byte & 128) {
      scale *= 128
      continue
    }
    durations.push(code === 0 ? null : (code - 1) / 10)
    code = 0
    scale = 1
  }
  return durations
}
