/** Distinguishes x86 from ARM by the sign of a NaN after a float conversion. */
export function architecture(): number {
  const floats = new Float32Array(1)
  const bytes = new Uint8Array(floats.buffer)
  floats[0] = Number.POSITIVE_INFINITY
  floats[0] = (floats[0] ?? 0) - (floats[0] ?? 0)
  return bytes[3] ?? 0
}
